// Guessing one account's password from many addresses: the limit per sign-in name across every
// address, which holds back the addresses the name has not signed in from, never the owner's own.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_ADDRESSES_PER_NAME } from '../../../server/accounts/login-limits.ts';
import type { TestApp } from '../../helpers/app.ts';
import { appWithAccounts, signIn } from './sign-in.ts';

// A back-off far longer than the test, so a refused attempt cannot become an allowed one while
// the test runs on a busy machine.
const LIMITS = {
  windowSeconds: 3600,
  perAccount: 5,
  perAddress: 30,
  perName: 10,
  backoffSeconds: 600,
  knownAddressDays: 30,
};

describe('failed sign-ins on one name from many addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWithAccounts(LIMITS, ['besieged', 'control', 'traveller', 'nomad']);
  });
  afterAll(async () => {
    await t.close();
  });

  const login = (username: string, password: string, address: string) =>
    signIn(t, username, password, address);
  /** Five wrong passwords from each of `count` addresses of `net`, in turn; their statuses. */
  const attack = async (username: string, net: string, count: number) => {
    const statuses: number[] = [];
    for (let host = 1; host <= count; host++)
      for (let i = 0; i < 5; i++)
        statuses.push((await login(username, `guess-${host}-${i}`, `${net}.${host}`)).status);
    return statuses;
  };

  it('holds back addresses new to the name once it has failed LOGIN_LIMIT_PER_NAME times, the owner at a known address still signs in', async () => {
    // The owner signs in from home, over IPv4 and IPv6, before the attack.
    expect((await login('besieged', 'right-password', '127.0.2.1')).status).toBe(200);
    expect((await login('besieged', 'right-password', '2001:db8:aa:1::5')).status).toBe(200);

    const statuses = await attack('besieged', '127.0.1', 20);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(90).fill(429));

    // From home the owner gets in, over IPv6 from any address of the known /64.
    expect((await login('besieged', 'right-password', '127.0.2.1')).status).toBe(200);
    expect((await login('besieged', 'right-password', '2001:db8:aa:1:ffff::9')).status).toBe(200);
    // From an address new to the name, the owner waits like anyone else, told so in the contract's shape.
    const elsewhere = await login('besieged', 'right-password', '127.0.3.1');
    expect(elsewhere.status).toBe(429);
    const seconds = Number(elsewhere.retryAfter);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(LIMITS.backoffSeconds);
    expect(elsewhere.body).toEqual({
      error: expect.stringMatching(
        /^Too many failed sign-in attempts\. Please wait \d+ (seconds?|minutes?) and try again\.$/,
      ),
      code: 'rate_limited',
      details: { retry_after: seconds },
    });
    // The owner's successes gave the attack no fresh allowance.
    expect((await login('besieged', 'guess', '127.0.1.21')).status).toBe(429);
    // Other accounts are untouched.
    expect((await login('control', 'right-password', '127.0.1.22')).status).toBe(200);
  }, 120_000);

  it('still limits wrong passwords from a known address, by its own count', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login('besieged', `typo${i}`, '127.0.2.1')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('treats a name with no account exactly like one with', async () => {
    const real = await attack('control', '127.0.6', 3);
    const none = await attack('nobody-by-this-name', '127.0.7', 3);
    expect(none).toEqual(real);
    expect(real).toEqual([...Array(10).fill(401), ...Array(5).fill(429)]);
  });

  it(`forgets an address after LOGIN_KNOWN_ADDRESS_DAYS, and keeps only the latest ${KNOWN_ADDRESSES_PER_NAME} per name`, async () => {
    const { db } = t.services.database;
    expect((await login('traveller', 'right-password', '127.0.8.1')).status).toBe(200);
    await sql`update login_known_addresses set last_signed_in_at = last_signed_in_at - interval '31 days'`.execute(
      db,
    );
    for (let host = 1; host <= KNOWN_ADDRESSES_PER_NAME + 1; host++)
      expect((await login('nomad', 'right-password', `127.0.9.${host}`)).status).toBe(200);
    expect((await login('traveller', 'right-password', '127.0.8.2')).status).toBe(200);

    const { rows } = await sql<{ most: number }>`
      select max(n)::int as most from (select count(*) as n from login_known_addresses group by name_key) counts`.execute(
      db,
    );
    expect(rows[0]?.most).toBe(KNOWN_ADDRESSES_PER_NAME);

    await attack('traveller', '127.0.10', 3);
    await attack('nomad', '127.0.11', 3);
    expect((await login('traveller', 'right-password', '127.0.8.1')).status).toBe(429);
    expect((await login('traveller', 'right-password', '127.0.8.2')).status).toBe(200);
    expect((await login('nomad', 'right-password', '127.0.9.1')).status).toBe(429);
    expect((await login('nomad', 'right-password', '127.0.9.2')).status).toBe(200);
    expect((await login('nomad', 'right-password', `127.0.9.${KNOWN_ADDRESSES_PER_NAME + 1}`)).status).toBe(
      200,
    );
  }, 120_000);
});
