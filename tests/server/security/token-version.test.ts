// Tokens are checked against the account on every signed-in request: a token whose user is gone,
// or whose token version (claim `tv`) is not the user's current one, gets 401 in the contract's
// shape. Tokens issued before versions existed carry no `tv` and count as version 0.
import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function signed(payload: object, secret: string): string {
  const unsigned = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

describe('token version', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
  });
  afterAll(async () => t.close());

  const profile = (token: string) => call(t.app, 'GET', '/api/auth/profile', undefined, token);
  const bump = (id: number) =>
    sql`update users set token_version = token_version + 1 where id = ${id}`.execute(t.services.database.db);
  const register = async (username: string) => {
    const res = await call(t.app, 'POST', '/api/auth/register', {
      username,
      email: `${username}@example.test`,
      password: 'correct horse',
    });
    expect(res.status).toBe(201);
    return res.body as { access_token: string; user: { id: number; username: string } };
  };

  it('carries the version in issued tokens and refuses a token once the version changes', async () => {
    const { access_token: first, user } = await register('versioned');
    expect(claimsOf(first).tv).toBe(0);
    expect((await profile(first)).status).toBe(200);

    await bump(user.id);
    const stale = await profile(first);
    expect(stale.status).toBe(401);
    expect(stale.body).toEqual({ error: expect.stringMatching(/log in again/i), code: 'unauthorized' });
    // A write is refused the same way, before it changes anything.
    const write = await call(
      t.app,
      'POST',
      '/api/bodegas',
      { name: 'Stale Deli', address: '1 Main St' },
      first,
    );
    expect(write.status).toBe(401);
    expect(write.body.code).toBe('unauthorized');

    // Signing in again issues a token with the new version, which works.
    const login = await call(t.app, 'POST', '/api/auth/login', {
      username: 'versioned',
      password: 'correct horse',
    });
    expect(login.status).toBe(200);
    expect(claimsOf(login.body.access_token).tv).toBe(1);
    expect((await profile(login.body.access_token)).status).toBe(200);
    expect((await profile(first)).status).toBe(401);
  });

  it('treats a token without `tv` as version 0', async () => {
    const { user } = await register('legacy');
    const secret = t.services.config.jwtSecret;
    const now = Math.floor(Date.now() / 1000);
    const old = signed({ sub: String(user.id), username: user.username, iat: now, exp: now + 600 }, secret);
    expect((await profile(old)).status).toBe(200);
    await bump(user.id);
    expect((await profile(old)).status).toBe(401);
  });

  it('refuses a token whose user is gone, or whose `tv` is not a version', async () => {
    const { access_token, user } = await register('departed');
    const secret = t.services.config.jwtSecret;
    const now = Math.floor(Date.now() / 1000);
    for (const tv of [-1, 1.5, '0', null]) {
      const bad = signed(
        { sub: String(user.id), username: user.username, tv, iat: now, exp: now + 600 },
        secret,
      );
      const res = await profile(bad);
      expect(res.status, JSON.stringify(tv)).toBe(401);
      expect(res.body.code).toBe('unauthorized');
    }
    await t.services.database.db.deleteFrom('users').where('id', '=', user.id).execute();
    const gone = await profile(access_token);
    expect(gone.status).toBe(401);
    expect(gone.body).toEqual({ error: expect.any(String), code: 'unauthorized' });
  });

  it('leaves public routes working for a stale token, as signed out', async () => {
    const { access_token, user } = await register('wanderer');
    await bump(user.id);
    const res = await call(t.app, 'GET', '/api/search/cats', undefined, access_token);
    expect(res.status).toBe(200);
  });
});
