import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressGroupOf, waitOf } from '../../../server/accounts/login-limits.ts';
import type { TestApp } from '../../helpers/app.ts';
import { appWithAccounts, signIn } from './sign-in.ts';

// Waits far longer than the gap between two deliberately slow password checks on a busy machine.
// Instead of sleeping through them, the test ages the stored counters, which is exactly what the
// passing of time does to them.
const LIMITS = {
  windowSeconds: 600,
  perAccount: 2,
  perAddress: 4,
  perName: 6,
  backoffSeconds: 60,
  knownAddressDays: 30,
};

describe('brute-force protection of sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWithAccounts(LIMITS, ['victim', 'bystander', 'forgetful', 'roamer']);
  });
  afterAll(async () => {
    await t.close();
  });

  const login = async (username: string, password: string, address: string) => {
    const answer = await signIn(t, username, password, address);
    return { ...answer, retryAfter: Number(answer.retryAfter) };
  };
  /** Lets `seconds` pass for every failure counted so far. */
  const letTimePass = async (seconds: number) => {
    await sql`update login_failures set last_failed_at = last_failed_at - make_interval(secs => ${seconds})`.execute(
      t.services.database.db,
    );
  };

  it('slows down the address that hammers an account, never the owner signing in elsewhere', async () => {
    const attacker = '10.0.0.66';
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await login('victim', `guess${i}`, attacker)).status);
    expect(statuses.slice(0, 2)).toEqual([401, 401]);
    expect(statuses.slice(2).every((s) => s === 429)).toBe(true);
    const limited = await login('victim', 'right-password', attacker);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: expect.stringMatching(
        /^Too many failed sign-in attempts\. Please wait \d+ (seconds?|minutes?) and try again\.$/,
      ),
      code: 'rate_limited',
      details: { retry_after: limited.retryAfter },
    });
    // The account's email is counted apart from its username (login-limits-probe tests why).
    expect((await login('VICTIM@example.test', 'wrong', attacker)).status).toBe(401);
    // The owner, from an address with no failures, gets straight in; so does anyone else.
    expect((await login('victim', 'right-password', '10.0.0.2')).status).toBe(200);
    expect((await login('victim@example.test', 'right-password', '10.0.0.3')).status).toBe(200);
    expect((await login('bystander', 'right-password', '10.0.0.4')).status).toBe(200);
  });

  it('backs off, doubling the wait with each further failure, rather than blocking', async () => {
    const address = '10.0.5.1';
    for (let i = 0; i < 2; i++) expect((await login('forgetful', `nope${i}`, address)).status).toBe(401);
    const first = await login('forgetful', 'right-password', address);
    expect(first.status).toBe(429);
    expect(first.retryAfter).toBeGreaterThan(55);
    expect(first.retryAfter).toBeLessThanOrEqual(60);
    await letTimePass(60);
    expect((await login('forgetful', 'nope2', address)).status).toBe(401);
    const second = await login('forgetful', 'right-password', address);
    expect(second.status).toBe(429);
    expect(second.retryAfter).toBeGreaterThan(115);
    expect(second.retryAfter).toBeLessThanOrEqual(120);
    // Refused attempts do not extend the wait.
    await letTimePass(100);
    const probe = await login('forgetful', 'right-password', address);
    expect(probe.status).toBe(429);
    expect(probe.retryAfter).toBeLessThanOrEqual(20);
    await letTimePass(20);
    expect((await login('forgetful', 'right-password', address)).status).toBe(200);
  });

  it('never asks for a wait longer than the window', () => {
    expect(waitOf({ failures: 1, age: 0 }, 2, LIMITS)).toBe(0);
    expect(waitOf({ failures: 2, age: 0 }, 2, LIMITS)).toBe(60);
    expect(waitOf({ failures: 3, age: 10 }, 2, LIMITS)).toBe(110);
    expect(waitOf({ failures: 40, age: 0 }, 2, LIMITS)).toBe(600);
    expect(waitOf({ failures: 40_000, age: 0 }, 2, LIMITS)).toBe(600);
    expect(waitOf({ failures: 40, age: 600 }, 2, LIMITS)).toBe(0);
  });

  it('treats unknown names like real ones, so a limit does not reveal who has an account', async () => {
    for (let i = 0; i < 2; i++) expect((await login('no-such-user', 'guess', '10.0.1.1')).status).toBe(401);
    const limited = await login('no-such-user', 'guess', '10.0.1.1');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect((await login('no-such-user', 'guess', '10.0.1.2')).status).toBe(401);
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

  it('resets the count of an account at an address after a successful sign-in', async () => {
    for (let round = 0; round < 3; round++) {
      expect((await login('bystander', 'wrong', '10.0.4.1')).status).toBe(401);
      expect((await login('bystander', 'right-password', '10.0.4.1')).status).toBe(200);
    }
    expect((await login('bystander', 'wrong', '10.0.4.1')).status).toBe(401);
  });

  it('groups addresses: IPv4 as it is, IPv4-mapped IPv6 as IPv4, other IPv6 by /64', () => {
    expect(addressGroupOf('192.0.2.7')).toBe('192.0.2.7');
    expect(addressGroupOf('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressGroupOf('::FFFF:c000:207')).toBe('192.0.2.7');
    expect(addressGroupOf('2001:DB8:0:12:34::1')).toBe('2001:db8:0:12::/64');
    expect(addressGroupOf('2001:db8::12:0:0:0:1')).toBe('2001:db8:0:12::/64');
    expect(addressGroupOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressGroupOf('64:ff9b::192.0.2.7')).toBe('64:ff9b:0:0::/64');
    expect(addressGroupOf('::1')).toBe('0:0:0:0::/64');
  });

  it('counts IPv6 clients by /64 for the per-address limit, and IPv4-mapped ones as IPv4', async () => {
    const net = '2001:db8:1:2';
    const addresses = [`${net}::1`, `${net}::2`, `${net}:abcd::3`, `${net}:ffff:ffff:ffff:ffff`];
    for (const [i, address] of addresses.entries())
      expect((await login(`v6-sprayed${i}`, 'guess', address)).status).toBe(401);
    expect((await login('bystander', 'right-password', `${net}::99`)).status).toBe(429);
    // The same /64 written out in full is the same client.
    expect((await login('bystander', 'right-password', '2001:0db8:0001:0002:0:0:0:7')).status).toBe(429);
    // The neighbouring /64 is another client.
    expect((await login('bystander', 'right-password', '2001:db8:1:3::1')).status).toBe(200);

    for (let i = 0; i < 4; i++) expect((await login(`v4-sprayed${i}`, 'guess', '10.0.7.1')).status).toBe(401);
    expect((await login('bystander', 'right-password', '::ffff:10.0.7.1')).status).toBe(429);
    expect((await login('bystander', 'right-password', '::ffff:10.0.7.2')).status).toBe(200);
  });

  it('counts a name at an IPv6 client by /64', async () => {
    for (const address of ['2001:db8:9:9::1', '2001:db8:9:9:a:b:c:d'])
      expect((await login('roamer', 'wrong', address)).status).toBe(401);
    expect((await login('roamer', 'right-password', '2001:db8:9:9::2')).status).toBe(429);
    // The /64's own count (2 of 4) is not what refused it.
    expect((await login('bystander', 'right-password', '2001:db8:9:9::2')).status).toBe(200);
    expect((await login('roamer', 'right-password', '2001:db8:9:a::1')).status).toBe(200);
  });

  it('keeps the counts in the database, where every api instance sees them, as hashes', async () => {
    const { db } = t.services.database;
    const rows = await db.selectFrom('login_failures').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toMatch(/victim|sprayed|bystander|10\.0\.|2001/);
    const known = await db.selectFrom('login_known_addresses').selectAll().execute();
    expect(known.length).toBeGreaterThan(0);
    expect(JSON.stringify(known)).not.toMatch(/victim|bystander|roamer|10\.0\.|2001/);
  });
});
