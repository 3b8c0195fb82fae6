// Whether an email address is some username's must not show in the sign-in limits: an attacker
// who fails on `alice` and then tries an email gets the same answer whether or not it is alice's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { appWithAccounts, signIn } from './sign-in.ts';

const LIMITS = {
  windowSeconds: 3600,
  perAccount: 5,
  perAddress: 30,
  perName: 6,
  backoffSeconds: 600,
  knownAddressDays: 30,
};

describe('probing which email belongs to a username through the sign-in limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await appWithAccounts(LIMITS, ['alice', 'bob']);
  });
  afterAll(async () => {
    await t.close();
  });

  const answer = (username: string, address: string) => signIn(t, username, 'a-wrong-guess', address);
  /** The answers to alice's email, another account's email and an email with no account. */
  const probe = async (address: string) => ({
    alices: await answer('alice@example.test', address),
    bobs: await answer('bob@example.test', address),
    nobodys: await answer('nobody@example.test', address),
  });
  /**
   * The answers match, but for how long a 429 asks to wait: that runs down from each name's own
   * last failure, a second or so apart here, and says nothing of whose name it is.
   */
  const expectIndistinguishable = (probed: Awaited<ReturnType<typeof probe>>) => {
    const waits = Object.values(probed).map((a) => Number(a.retryAfter ?? 0));
    expect(Math.max(...waits) - Math.min(...waits)).toBeLessThanOrEqual(5);
    const shape = (a: Awaited<ReturnType<typeof answer>>) =>
      a.status === 429 ? { ...a, retryAfter: 'n', body: { ...a.body, details: { retry_after: 'n' } } } : a;
    expect(shape(probed.alices)).toEqual(shape(probed.bobs));
    expect(shape(probed.alices)).toEqual(shape(probed.nobodys));
  };

  it('answers the same from the address that filled the username’s count', async () => {
    const attacker = '10.9.0.1';
    for (let i = 0; i < 5; i++) expect((await answer('alice', attacker)).status).toBe(401);
    expect((await answer('alice', attacker)).status).toBe(429);
    const probed = await probe(attacker);
    expectIndistinguishable(probed);
    expect(probed.alices).toEqual({
      status: 401,
      body: { error: 'Invalid username or password', code: 'unauthorized' },
      retryAfter: undefined,
    });
  });

  it('answers the same from a fresh address once the username’s count across addresses is full', async () => {
    // One more from a second address fills alice's six across addresses (with the first test's five).
    expect((await answer('alice', '10.9.1.1')).status).toBe(401);
    expect((await answer('alice', '10.9.1.2')).status).toBe(429);
    const probed = await probe('10.9.2.1');
    expectIndistinguishable(probed);
    expect(probed.alices.status).toBe(401);
  });

  it('answers the same once the email’s own count is full, whoever it belongs to', async () => {
    // Each email failed once per probe above; four more from new addresses fill each count.
    for (let i = 0; i < 4; i++)
      for (const email of ['alice@example.test', 'bob@example.test', 'nobody@example.test'])
        expect((await answer(email, `10.9.3.${i + 1}`)).status).toBe(401);
    const probed = await probe('10.9.4.1');
    expectIndistinguishable(probed);
    expect(probed.alices.status).toBe(429);
  });
});
