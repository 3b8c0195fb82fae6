import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

// A window far longer than the gap between two deliberately slow password checks on a busy
// machine. Instead of sleeping through it, the test ages the stored counters, which is exactly
// what the passing of time does to them.
const LIMITS = { windowSeconds: 60, perAccount: 2, perAddress: 4 };

describe('brute-force protection of sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ worker: false, config: { login: LIMITS } });
    for (const username of ['victim', 'bystander'])
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: { username, email: `${username}@example.test`, password: 'right-password' },
      });
  });
  afterAll(async () => {
    await t.close();
  });

  const login = async (username: string, password: string, address: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: address,
      payload: { username, password },
    });
    return { status: res.statusCode, body: res.json(), retryAfter: Number(res.headers['retry-after']) };
  };
  /** Lets `seconds` pass for every failure counted so far. */
  const letTimePass = async (seconds: number) => {
    await sql`update login_failures set last_failed_at = last_failed_at - make_interval(secs => ${seconds})`.execute(
      t.services.database.db,
    );
  };

  it('limits failed sign-ins per account, then lets the user back in after the window', async () => {
    for (let i = 0; i < 2; i++) expect((await login('victim', `guess${i}`, '10.0.0.1')).status).toBe(401);
    // Full: even the right password waits, from any address.
    const limited = await login('victim', 'right-password', '10.0.0.2');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: expect.stringMatching(
        /^Too many failed sign-in attempts\. Please wait \d+ (seconds?|minutes?) and try again\.$/,
      ),
      code: 'rate_limited',
      details: { retry_after: limited.retryAfter },
    });
    expect(limited.retryAfter).toBeGreaterThanOrEqual(1);
    expect(limited.retryAfter).toBeLessThanOrEqual(60);
    expect((await login('VICTIM', 'right-password', '10.0.0.3')).status).toBe(429);
    // Other accounts are not affected.
    expect((await login('bystander', 'right-password', '10.0.0.4')).status).toBe(200);

    // Not quite the whole wait: still limited, and the refused attempts did not extend it.
    const probe = await login('victim', 'right-password', '10.0.0.2');
    expect(probe.status).toBe(429);
    expect(probe.retryAfter).toBeLessThanOrEqual(limited.retryAfter);
    await letTimePass(probe.retryAfter - 2);
    const almost = await login('victim', 'right-password', '10.0.0.2');
    expect(almost.status).toBe(429);
    expect(almost.retryAfter).toBeLessThanOrEqual(2);
    await letTimePass(2);
    expect((await login('victim', 'right-password', '10.0.0.2')).status).toBe(200);
  });

  it('treats unknown names like real ones, so a limit does not reveal who has an account', async () => {
    for (let i = 0; i < 2; i++) expect((await login('no-such-user', 'guess', '10.0.1.1')).status).toBe(401);
    const limited = await login('no-such-user', 'guess', '10.0.1.2');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
  });

  it('limits failed sign-ins per address across many names', async () => {
    for (let i = 0; i < 4; i++) expect((await login(`sprayed${i}`, 'guess', '10.0.2.1')).status).toBe(401);
    const limited = await login('bystander', 'right-password', '10.0.2.1');
    expect(limited.status).toBe(429);
    // Another address still signs in.
    expect((await login('bystander', 'right-password', '10.0.2.2')).status).toBe(200);
    await letTimePass(limited.retryAfter);
    expect((await login('bystander', 'right-password', '10.0.2.1')).status).toBe(200);
  });

  it('does not count successful sign-ins against the address', async () => {
    for (let i = 0; i < 6; i++)
      expect((await login('bystander', 'right-password', '10.0.3.1')).status).toBe(200);
  });

  it('resets the account count after a successful sign-in', async () => {
    for (let round = 0; round < 2; round++) {
      expect((await login('bystander', 'wrong', `10.0.4.${round}`)).status).toBe(401);
      expect((await login('bystander', 'right-password', `10.0.4.${round}`)).status).toBe(200);
    }
    expect((await login('bystander', 'wrong', '10.0.4.9')).status).toBe(401);
  });

  it('keeps the counts in the database, where every api instance sees them, as hashes', async () => {
    const rows = await t.services.database.db.selectFrom('login_failures').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toMatch(/victim|sprayed|bystander|10\.0\./);
  });
});
