// The client's address decides the per-address limits, so only configured proxies may state it
// (TRUST_PROXY). A client that sends its own X-Forwarded-For must not become someone else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.ts';
import type { Config } from '../../../server/config.ts';
import { createTestApp, testConfig, type TestApp } from '../../helpers/app.ts';

const randomAddress = (i: number) => `203.0.${Math.floor(i / 250)}.${(i % 250) + 1}`;

async function failedSignIn(
  t: TestApp,
  name: string,
  headers: Record<string, string>,
  remoteAddress?: string,
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress,
    headers,
    payload: { username: name, password: 'wrong-password' },
  });
  return res.statusCode;
}

describe('forwarded client addresses', () => {
  const apps: TestApp[] = [];
  const appWith = async (config: Partial<Config>) => {
    const t = await createTestApp({ worker: false, config });
    apps.push(t);
    return t;
  };
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  it('ignores X-Forwarded-For by default: 40 failed sign-ins with forged addresses get 429', async () => {
    // The default trust, with a lower per-address limit than the default 30 only to spend fewer
    // (deliberately slow) password checks; every name and forged address is new each time.
    const t = await appWith({ login: { ...testConfig().login, perAddress: 10 } });
    expect(t.services.config.trustProxy).toBe(false);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push(await failedSignIn(t, `sprayed-${i}`, { 'x-forwarded-for': randomAddress(i) }));
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
  }, 120_000);

  it('ignores X-Forwarded-For for the write limit by default', async () => {
    const t = await appWith({ writeRateLimitPerMinute: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/nothing-here',
        headers: { 'x-forwarded-for': randomAddress(i) },
        payload: {},
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
  });

  describe('behind one proxy (TRUST_PROXY=1)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await appWith({
        trustProxy: 1,
        login: {
          ...testConfig().login,
          windowSeconds: 60,
          perAccount: 100,
          perAddress: 3,
          backoffSeconds: 60,
        },
      });
    });

    it('counts each client the proxy names on its own', async () => {
      for (let i = 0; i < 3; i++)
        expect(await failedSignIn(t, `one-${i}`, { 'x-forwarded-for': '198.51.100.1' }, '10.0.0.2')).toBe(
          401,
        );
      expect(await failedSignIn(t, 'one-x', { 'x-forwarded-for': '198.51.100.1' }, '10.0.0.2')).toBe(429);
      expect(await failedSignIn(t, 'two-0', { 'x-forwarded-for': '198.51.100.2' }, '10.0.0.2')).toBe(401);
    });

    it('takes only the entry the proxy added, not what the client put before it', async () => {
      // nginx overwrites the header; a proxy that appends would pass "forged, real".
      for (let i = 0; i < 3; i++)
        expect(
          await failedSignIn(
            t,
            `chain-${i}`,
            { 'x-forwarded-for': `${randomAddress(i)}, 198.51.100.7` },
            '10.0.0.2',
          ),
        ).toBe(401);
      expect(
        await failedSignIn(
          t,
          'chain-x',
          { 'x-forwarded-for': `${randomAddress(9)}, 198.51.100.7` },
          '10.0.0.2',
        ),
      ).toBe(429);
    });
  });

  it('trusts the header only from the listed proxy addresses', async () => {
    const t = await appWith({
      trustProxy: ['10.0.0.0/8'],
      login: { ...testConfig().login, windowSeconds: 60, perAccount: 100, perAddress: 2, backoffSeconds: 60 },
    });
    // From outside the proxy range the header is ignored: the socket's address is counted.
    for (let i = 0; i < 2; i++)
      expect(await failedSignIn(t, `direct-${i}`, { 'x-forwarded-for': randomAddress(i) }, '192.0.2.9')).toBe(
        401,
      );
    expect(await failedSignIn(t, 'direct-x', { 'x-forwarded-for': randomAddress(5) }, '192.0.2.9')).toBe(429);
    // Through the proxy, the named client is counted.
    expect(await failedSignIn(t, 'proxied', { 'x-forwarded-for': '198.51.100.30' }, '10.9.8.7')).toBe(401);
  });
});

describe('TRUST_PROXY', () => {
  const load = (value: string) =>
    loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(8), TRUST_PROXY: value });

  it('is off unless set', () => {
    expect(loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'whatever' }).trustProxy).toBe(false);
    expect(load('').trustProxy).toBe(false);
    expect(load('0').trustProxy).toBe(false);
    expect(load('false').trustProxy).toBe(false);
  });

  it('takes a hop count or a list of addresses and CIDRs', () => {
    expect(load('1').trustProxy).toBe(1);
    expect(load('2').trustProxy).toBe(2);
    expect(load('10.0.0.0/8, 172.16.0.1,fd00::/8,loopback').trustProxy).toEqual([
      '10.0.0.0/8',
      '172.16.0.1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses anything else with a clear message', () => {
    for (const value of ['true', 'nginx', '10.0.0.0/33', '10.0.0.1/8/1', '300.1.1.1', '10.0.0.0/8,,', '99']) {
      expect(() => load(value), value).toThrow(ConfigError);
      expect(() => load(value), value).toThrow(/TRUST_PROXY/);
    }
  });
});

describe('the write limit with Redis down', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Nothing listens on port 1: every limiter call to Redis fails at once.
    t = await createTestApp({
      worker: false,
      config: { writeRateLimitPerMinute: 3, redisUrl: 'redis://127.0.0.1:1' },
    });
  });
  afterAll(async () => t?.close());

  const send = async (url: string, payload: object = {}) =>
    (await t.app.inject({ method: 'POST', url, remoteAddress: '198.51.100.77', payload })).statusCode;

  it('still limits sign-ins per address (fails closed)', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++)
      statuses.push(await send('/api/auth/login', { username: `nobody-${i}`, password: 'wrong-password' }));
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it('lets other writes by rather than refuse them (fails open)', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push(await send('/api/nothing-here'));
    expect(statuses).toEqual([404, 404, 404, 404, 404]);
  });
});
