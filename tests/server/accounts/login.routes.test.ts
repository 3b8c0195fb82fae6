import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A token built by hand, to present what the server's own signer would never produce. */
function handMadeToken(header: object, payload: object, secret: string | null, hash = 'sha256') {
  const unsigned = `${b64url(header)}.${b64url(payload)}`;
  const signature = secret === null ? '' : createHmac(hash, secret).update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}

describe('signing in and the session token', () => {
  let t: TestApp;
  let user: { id: number; username: string; email: string };
  let secret: string;
  const now = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    secret = t.services.config.jwtSecret;
    const res = await call(t.app, 'POST', '/api/auth/register', {
      username: 'NightOwl',
      email: 'Owl@Example.test',
      password: 'hunter22',
    });
    user = res.body.user;
  });
  afterAll(async () => t.close());

  const login = (username: string, password: string) =>
    call(t.app, 'POST', '/api/auth/login', { username, password });

  it('signs in by username, in any case', async () => {
    for (const name of ['NightOwl', 'nightowl', '  NIGHTOWL ']) {
      const res = await login(name, 'hunter22');
      expect(res.status, name).toBe(200);
      expect(res.body).toEqual({ access_token: expect.any(String), user });
    }
  });

  it('signs in by email address, in any case', async () => {
    const res = await login('owl@example.TEST', 'hunter22');
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual(user);
    const profile = await call(t.app, 'GET', '/api/auth/profile', undefined, res.body.access_token);
    expect(profile.body).toEqual({ user });
  });

  it('gives the same 401 for a wrong password and for an unknown user', async () => {
    const wrong = await login('NightOwl', 'hunter23');
    const unknown = await login('nobody-here', 'hunter22');
    const unknownEmail = await login('nobody@example.test', 'hunter22');
    for (const res of [wrong, unknown, unknownEmail]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Invalid username or password', code: 'unauthorized' });
    }
  });

  it('spends comparable time on unknown users as on wrong passwords', async () => {
    const timeOf = async (name: string) => {
      const started = performance.now();
      await login(name, 'not-the-password');
      return performance.now() - started;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    await login('NightOwl', 'hunter22'); // starts from a clean failure count
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      known.push(await timeOf('NightOwl'));
      unknown.push(await timeOf(`ghost${i}`));
    }
    // A skipped hash would answer an unknown name in a few ms against hundreds for a real check;
    // the loose bound leaves room for a busy machine.
    expect(median(unknown) / median(known)).toBeGreaterThan(0.3);
    await login('NightOwl', 'hunter22'); // clears the failures this test counted
  });

  it('refuses sign-in bodies that are incomplete', async () => {
    expect((await call(t.app, 'POST', '/api/auth/login', { username: 'NightOwl' })).body.details).toEqual({
      password: 'is required',
    });
    expect((await login('', 'hunter22')).status).toBe(400);
    expect(
      (await call(t.app, 'POST', '/api/auth/login', { username: 'a', password: 'b', x: 1 })).status,
    ).toBe(400);
  });

  it('answers the profile of the signed-in user, and 401 without a usable token', async () => {
    const { body } = await login('NightOwl', 'hunter22');
    expect(await call(t.app, 'GET', '/api/auth/profile', undefined, body.access_token)).toMatchObject({
      status: 200,
      body: { user },
    });
    expect((await call(t.app, 'GET', '/api/auth/profile')).status).toBe(401);
    const basic = await t.app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.statusCode).toBe(401);
  });

  it('rejects expired, garbage, alg-none, other-algorithm and wrongly signed tokens', async () => {
    const claims = { sub: String(user.id), username: user.username };
    const tokens = {
      expired: handMadeToken(
        { alg: 'HS256', typ: 'JWT' },
        { ...claims, iat: now() - 7200, exp: now() - 3600 },
        secret,
      ),
      garbage: 'this.is.garbage',
      notJwt: 'abc',
      algNone: handMadeToken({ alg: 'none', typ: 'JWT' }, { ...claims, iat: now() }, null),
      algNoneSigned: handMadeToken({ alg: 'none', typ: 'JWT' }, { ...claims, iat: now() }, secret),
      hs512: handMadeToken({ alg: 'HS512', typ: 'JWT' }, { ...claims, iat: now() }, secret, 'sha512'),
      wrongSecret: handMadeToken({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now() }, 'not-the-secret'),
      badSubject: handMadeToken(
        { alg: 'HS256', typ: 'JWT' },
        { sub: 'admin', username: 'x', iat: now() },
        secret,
      ),
    };
    for (const [kind, token] of Object.entries(tokens)) {
      const res = await call(t.app, 'GET', '/api/auth/profile', undefined, token);
      expect(res.status, kind).toBe(401);
      expect(res.body.code, kind).toBe('unauthorized');
    }
    const expired = await call(t.app, 'GET', '/api/auth/profile', undefined, tokens.expired);
    expect(expired.body.error).toBe('Your session has expired. Please log in again.');
    // The hand-made signer is right: the same claims, unexpired, are accepted.
    const good = handMadeToken(
      { alg: 'HS256', typ: 'JWT' },
      { ...claims, iat: now(), exp: now() + 60 },
      secret,
    );
    expect((await call(t.app, 'GET', '/api/auth/profile', undefined, good)).status).toBe(200);
  });

  it('issues tokens that last the configured lifetime (7 days by default) and carry no email', async () => {
    const { body } = await login('NightOwl', 'hunter22');
    const [header, payload] = body.access_token.split('.');
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'HS256' });
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims.exp - claims.iat).toBe(7 * 24 * 3600);
    expect(JSON.stringify(claims)).not.toContain('@');
  });

  it('answers 401 for the profile of an account that no longer exists', async () => {
    const ghost = handMadeToken(
      { alg: 'HS256', typ: 'JWT' },
      { sub: '987654', username: 'ghost', iat: now() },
      secret,
    );
    const res = await call(t.app, 'GET', '/api/auth/profile', undefined, ghost);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });
});
