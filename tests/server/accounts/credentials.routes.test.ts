// Changing the password and signing out everywhere: the rules and codes of PUT /api/auth/password
// and POST /api/auth/logout-all, and every token issued before either is refused afterwards.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';

type Session = { access_token: string; user: { id: number; username: string } };

async function register(t: TestApp, username: string, password = 'first-secret'): Promise<Session> {
  const res = await call(t.app, 'POST', '/api/auth/register', {
    username,
    email: `${username}@example.test`,
    password,
  });
  expect(res.status).toBe(201);
  return res.body as Session;
}

async function login(t: TestApp, username: string, password: string, address = '127.0.0.1') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: address,
    payload: { username, password },
  });
  return { status: res.statusCode, body: res.json() as Session };
}

function changePassword(t: TestApp, token: string, body: unknown, address = '127.0.0.1') {
  return t.app
    .inject({
      method: 'PUT',
      url: '/api/auth/password',
      remoteAddress: address,
      headers: { authorization: `Bearer ${token}` },
      payload: body as object,
    })
    .then((res) => ({ status: res.statusCode, body: res.json(), headers: res.headers }));
}

const profile = (t: TestApp, token: string) => call(t.app, 'GET', '/api/auth/profile', undefined, token);

async function accountEvents(t: TestApp, userId: number) {
  const { rows } = await sql<{ type: string; data: unknown }>`
    select type, data from events where stream_id = ${`account-${userId}`} order by global_position`.execute(
    t.services.database.db,
  );
  return rows.map((r) => ({ type: r.type, data: typeof r.data === 'string' ? JSON.parse(r.data) : r.data }));
}

describe('changing the password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      worker: false,
      config: {
        login: {
          windowSeconds: 600,
          perAccount: 3,
          perAddress: 50,
          perName: 6,
          backoffSeconds: 60,
          knownAddressDays: 30,
        },
      },
    });
  });
  afterAll(async () => t.close());

  it('answers a fresh token that works, and refuses every token issued before', async () => {
    const { access_token: first, user } = await register(t, 'changer');
    const other = (await login(t, 'changer', 'first-secret', '10.1.0.2')).body.access_token;
    expect((await profile(t, other)).status).toBe(200);

    const res = await changePassword(t, first, {
      current_password: 'first-secret',
      new_password: 'second-secret',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ access_token: expect.any(String) });
    const fresh = res.body.access_token as string;

    expect((await profile(t, fresh)).body).toEqual({ user: { ...user, email: 'changer@example.test' } });
    for (const stale of [first, other]) {
      const refused = await profile(t, stale);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ error: expect.stringMatching(/log in again/i), code: 'unauthorized' });
    }
    // A write with an old token changes nothing.
    const write = await call(
      t.app,
      'POST',
      '/api/bodegas',
      { name: 'Old Token Deli', address: '1 Main St' },
      first,
    );
    expect(write.status).toBe(401);
  });

  it('signs in with the new password only', async () => {
    const { access_token } = await register(t, 'switcher');
    expect(
      (
        await changePassword(t, access_token, {
          current_password: 'first-secret',
          new_password: 'brand new pw',
        })
      ).status,
    ).toBe(200);
    expect((await login(t, 'switcher', 'first-secret', '10.1.1.1')).status).toBe(401);
    const signedIn = await login(t, 'switcher', 'brand new pw', '10.1.1.2');
    expect(signedIn.status).toBe(200);
    expect((await profile(t, signedIn.body.access_token)).status).toBe(200);
  });

  it('refuses a wrong current password with 403 and changes nothing', async () => {
    const { access_token } = await register(t, 'mistaken');
    const res = await changePassword(t, access_token, {
      current_password: 'not-it',
      new_password: 'whatever1',
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Current password is incorrect', code: 'forbidden' });
    expect((await profile(t, access_token)).status).toBe(200);
    expect((await login(t, 'mistaken', 'first-secret', '10.1.2.1')).status).toBe(200);
    expect((await login(t, 'mistaken', 'whatever1', '10.1.2.2')).status).toBe(401);
  });

  it('holds the new password to the registration rules, naming the field', async () => {
    const { access_token } = await register(t, 'ruled');
    const short = await changePassword(t, access_token, {
      current_password: 'first-secret',
      new_password: 'abc',
    });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({
      error: 'Password must be at least 6 characters long',
      code: 'invalid_input',
      details: { new_password: 'Password must be at least 6 characters long' },
    });
    const long = await changePassword(t, access_token, {
      current_password: 'first-secret',
      new_password: 'x'.repeat(201),
    });
    expect(long.status).toBe(400);
    expect(long.body.details).toEqual({ new_password: 'Password must be at most 200 characters long' });
    for (const body of [
      { current_password: 'first-secret' },
      { new_password: 'second-secret' },
      { current_password: '', new_password: 'second-secret' },
      { current_password: 'first-secret', new_password: 'second-secret', extra: 1 },
      { current_password: 1, new_password: 'second-secret' },
    ]) {
      const res = await changePassword(t, access_token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_input');
    }
    // None of those changed anything.
    expect((await profile(t, access_token)).status).toBe(200);
    expect((await login(t, 'ruled', 'first-secret', '10.1.3.1')).status).toBe(200);
  });

  it('needs a signed-in caller', async () => {
    const res = await call(t.app, 'PUT', '/api/auth/password', {
      current_password: 'first-secret',
      new_password: 'second-secret',
    });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });

  it('counts wrong current passwords like failed sign-ins, backing off with 429', async () => {
    const { access_token } = await register(t, 'guessed');
    const address = '10.1.4.4';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push(
        (
          await changePassword(
            t,
            access_token,
            { current_password: `guess${i}`, new_password: 'taken-over' },
            address,
          )
        ).status,
      );
    expect(statuses).toEqual([403, 403, 403, 429]);
    const limited = await changePassword(
      t,
      access_token,
      { current_password: 'first-secret', new_password: 'taken-over' },
      address,
    );
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: expect.stringMatching(/^Too many failed sign-in attempts\. Please wait/),
      code: 'rate_limited',
      details: { retry_after: Number(limited.headers['retry-after']) },
    });
    // The account's sign-in counters from that address are the ones that filled up.
    expect((await login(t, 'guessed', 'first-secret', address)).status).toBe(429);
    expect((await login(t, 'guessed@example.test', 'first-secret', address)).status).toBe(429);
    expect((await login(t, 'guessed', 'first-secret', '10.1.4.5')).status).toBe(200);
  });

  it('holds back guesses with a token from many addresses, not the owner at a known address', async () => {
    const { access_token } = await register(t, 'stolen');
    expect((await login(t, 'stolen', 'first-secret', '10.1.8.1')).status).toBe(200);
    const statuses: number[] = [];
    for (let host = 1; host <= 3; host++)
      for (let i = 0; i < 3; i++)
        statuses.push(
          (
            await changePassword(
              t,
              access_token,
              { current_password: `guess${host}${i}`, new_password: 'taken-over' },
              `10.1.9.${host}`,
            )
          ).status,
        );
    // Six wrong guesses are the account's names' allowance across addresses.
    expect(statuses).toEqual([403, 403, 403, 403, 403, 403, 429, 429, 429]);
    // The guesses count against signing in by either name from anywhere new...
    expect((await login(t, 'stolen', 'first-secret', '10.1.10.1')).status).toBe(429);
    expect((await login(t, 'stolen@example.test', 'first-secret', '10.1.10.2')).status).toBe(429);
    // ...but the owner, at an address they signed in from, still changes the password.
    const owner = await changePassword(
      t,
      access_token,
      { current_password: 'first-secret', new_password: 'taken-back' },
      '10.1.8.1',
    );
    expect(owner.status).toBe(200);
  });

  it('records PasswordChanged with the user id only, never a password or hash', async () => {
    const { access_token, user } = await register(t, 'recorded', 'recorded-secret');
    await changePassword(t, access_token, {
      current_password: 'recorded-secret',
      new_password: 'recorded-next',
    });
    const events = await accountEvents(t, user.id);
    expect(events).toEqual([{ type: 'PasswordChanged', data: { user_id: user.id } }]);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from events
      where data::text like '%recorded-%' or data::text like '%scrypt$%'`.execute(t.services.database.db);
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it('lets only one of two racing changes from the same current password through', async () => {
    const { access_token } = await register(t, 'racer');
    const [a, b] = await Promise.all([
      changePassword(
        t,
        access_token,
        { current_password: 'first-secret', new_password: 'racer-one' },
        '10.1.5.1',
      ),
      changePassword(
        t,
        access_token,
        { current_password: 'first-secret', new_password: 'racer-two' },
        '10.1.5.2',
      ),
    ]);
    const statuses = [a.status, b.status].sort();
    // The loser either saw the winner's version bump (401) or lost the hash check (403).
    expect(statuses[0]).toBe(200);
    expect([401, 403]).toContain(statuses[1]);
    const winner = a.status === 200 ? 'racer-one' : 'racer-two';
    const loser = winner === 'racer-one' ? 'racer-two' : 'racer-one';
    expect((await login(t, 'racer', winner, '10.1.5.3')).status).toBe(200);
    expect((await login(t, 'racer', loser, '10.1.5.4')).status).toBe(401);
  });
});

describe('signing out everywhere', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
  });
  afterAll(async () => t.close());

  it('ends every session, this one too, and records it', async () => {
    const { access_token: here, user } = await register(t, 'leaver');
    const elsewhere = (await login(t, 'leaver', 'first-secret', '10.2.0.2')).body.access_token;
    const res = await call(t.app, 'POST', '/api/auth/logout-all', undefined, here);
    expect(res).toMatchObject({ status: 200, body: {} });
    for (const token of [here, elsewhere]) expect((await profile(t, token)).status).toBe(401);
    expect((await call(t.app, 'POST', '/api/auth/logout-all', undefined, here)).status).toBe(401);
    expect(await accountEvents(t, user.id)).toEqual([
      { type: 'SignedOutEverywhere', data: { user_id: user.id } },
    ]);
    // Signing in again works, with a token of the new version.
    const again = await login(t, 'leaver', 'first-secret', '10.2.0.3');
    expect(again.status).toBe(200);
    expect((await profile(t, again.body.access_token)).status).toBe(200);
  });

  it("leaves other people's sessions alone", async () => {
    const a = await register(t, 'stayer');
    const b = await register(t, 'goer');
    expect((await call(t.app, 'POST', '/api/auth/logout-all', undefined, b.access_token)).status).toBe(200);
    expect((await profile(t, a.access_token)).status).toBe(200);
    expect((await profile(t, b.access_token)).status).toBe(401);
  });

  it('needs a signed-in caller', async () => {
    const res = await call(t.app, 'POST', '/api/auth/logout-all');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
  });
});

describe('the write limiter on account changes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ worker: false, config: { writeRateLimitPerMinute: 3 } });
  });
  afterAll(async () => t.close());

  it('answers 429 once the writes of a minute are spent', async () => {
    // Registering is one write of the address's budget; two more fit.
    const { access_token } = await register(t, 'hasty');
    const first = await changePassword(t, access_token, {
      current_password: 'first-secret',
      new_password: 'second-secret',
    });
    expect(first.status).toBe(200);
    const second = await call(t.app, 'POST', '/api/auth/logout-all', undefined, first.body.access_token);
    expect(second.status).toBe(200);
    const limited = await changePassword(t, first.body.access_token, {
      current_password: 'second-secret',
      new_password: 'third-secret',
    });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      code: 'rate_limited',
      details: { retry_after: expect.any(Number) },
    });
  });
});
