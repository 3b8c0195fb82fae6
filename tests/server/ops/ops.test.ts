import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSources, mapStyleOrigin, styleSources } from '../../../server/ops/security.ts';
import { ConfigError, loadConfig } from '../../../server/config.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';

describe('operations surface', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: { operatorToken: 'operator-token-0123456789', writeRateLimitPerMinute: 3 },
    });
  });
  afterAll(async () => t.close());

  it('exposes Prometheus metrics for requests, the log, consumers, queues and the search cache', async () => {
    await call(t.app, 'GET', '/api/health');
    await call(t.app, 'GET', '/api/search/cats?q=metrics');
    await call(t.app, 'GET', '/api/search/cats?q=metrics');
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    for (const name of [
      'http_requests_total',
      'http_request_duration_seconds',
      'events_total',
      'consumer_lag_events',
      'consumer_lag_seconds',
      'queue_jobs',
      'websocket_clients',
    ]) {
      expect(res.body).toContain(name);
    }
    expect(res.body).toMatch(/http_requests_total\{[^}]*route="\/api\/health"[^}]*status="200"/);
    expect(res.body).toMatch(/consumer_lag_events\{[^}]*subscription="job-dispatcher"/);
    const cache = searchCacheFigures(res.body);
    expect(cache.hit + cache.miss).toBeGreaterThanOrEqual(2);
    expect(cache.miss).toBeGreaterThanOrEqual(1);
    expect(res.body).toMatch(/search_cache_entries\{[^}]*\} [1-9]/);
  });

  it('serves an OpenAPI document generated from the route schemas', async () => {
    const res = await call(t.app, 'GET', '/api/docs/json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toContain('/api/health');
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-frame-options']).toBeDefined();
    // The page connects to its own origin only: no blanket ws:/wss:, no Google without a key.
    const connect = /connect-src ([^;]*)/
      .exec(String(res.headers['content-security-policy']))![1]!
      .split(' ');
    expect(connect).toEqual(["'self'"]);
  });

  it('sends the same security headers on answers, errors and unknown paths', async () => {
    const security = (headers: Record<string, unknown>) =>
      Object.fromEntries(
        ['content-security-policy', 'strict-transport-security', 'x-frame-options', 'referrer-policy'].map(
          (name) => [name, headers[name]],
        ),
      );
    const ok = await t.app.inject({ method: 'GET', url: '/api/health' });
    const missing = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    const invalid = await t.app.inject({ method: 'GET', url: '/api/map?west=1' });
    expect([ok.statusCode, missing.statusCode, invalid.statusCode]).toEqual([200, 404, 400]);
    expect(security(ok.headers)['content-security-policy']).toContain("default-src 'self'");
    expect(security(missing.headers)).toEqual(security(ok.headers));
    expect(security(invalid.headers)).toEqual(security(ok.headers));
  });

  it('lets the page connect to the public address and Google Maps only when they are configured', () => {
    const config = { ...t.services.config, publicBaseUrl: 'https://cats.example.org', googleMapsApiKey: 'k' };
    expect(connectSources(config)).toEqual([
      "'self'",
      'wss://cats.example.org',
      'https://maps.googleapis.com',
    ]);
  });

  it('lets the page load the street map from its style origin, a public key-less style by default', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).mapStyleUrl).toBe('https://tiles.openfreemap.org/styles/liberty');
    expect(loadConfig({ NODE_ENV: 'test', MAP_STYLE_URL: 'none' }).mapStyleUrl).toBeNull();
    expect(() => loadConfig({ NODE_ENV: 'test', MAP_STYLE_URL: 'ftp://tiles.example.org/s.json' })).toThrow(
      /MAP_STYLE_URL/,
    );
    const config = { ...t.services.config, mapStyleUrl: 'https://tiles.example.org:8443/styles/x.json' };
    expect(connectSources(config)).toEqual(["'self'", 'https://tiles.example.org:8443']);
    expect(mapStyleOrigin({ ...t.services.config, mapStyleUrl: null })).toEqual([]);
  });

  it('allows styles from the app itself only, and inline styles only for a configured Google map', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const policy = String(res.headers['content-security-policy']);
    expect(/style-src ([^;]*)/.exec(policy)![1]).toBe("'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('google');
    expect(styleSources({ ...t.services.config, googleMapsApiKey: 'k' })).toEqual([
      "'self'",
      "'unsafe-inline'",
      'https://fonts.googleapis.com',
    ]);
  });

  it('keeps the queue view behind the operator token', async () => {
    expect((await call(t.app, 'GET', '/api/admin/queues')).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/admin/queues', undefined, 'wrong')).status).toBe(401);
    const ok = await call(t.app, 'GET', '/api/admin/queues', undefined, 'operator-token-0123456789');
    expect(ok.status).toBe(200);
    expect(ok.body.queues).toHaveProperty('photos');
    const basic = await t.app.inject({
      method: 'GET',
      url: '/api/admin/queues',
      headers: {
        authorization: `Basic ${Buffer.from('operator:operator-token-0123456789').toString('base64')}`,
      },
    });
    expect(basic.statusCode).toBe(200);
  });

  it('rate limits writes with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await call(t.app, 'POST', '/api/nothing-here', {});
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 3).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429]);
    expect(last!.headers['retry-after']).toMatch(/^\d+$/);
    expect(last!.body).toMatchObject({ code: 'rate_limited', error: expect.stringContaining('Please wait') });
  });
});

describe('production configuration', () => {
  it('refuses to start without a strong JWT secret', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'short' })).toThrow(/too weak/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'a'.repeat(40) })).toThrow(/too weak/);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        JWT_SECRET: 'f3b1c9e27a4d58e06b1f2c3d4e5f60718293a4b5c6d7e8f9',
        DATA_KEY: 'ab'.repeat(32),
      }).env,
    ).toBe('production');
  });

  it('refuses to start in production without a well-formed DATA_KEY', () => {
    const secret = 'f3b1c9e27a4d58e06b1f2c3d4e5f60718293a4b5c6d7e8f9';
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret })).toThrow(
      /DATA_KEY is required when NODE_ENV=production/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret, DATA_KEY: 'short' })).toThrow(
      /DATA_KEY must be 32 random bytes/,
    );
    const key = loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret, DATA_KEY: 'cd'.repeat(32) }).dataKey;
    expect(key.equals(Buffer.alloc(32, 0xcd))).toBe(true);
  });

  it('explains every bad setting at once', () => {
    try {
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(3);
    }
  });
});

/** The search cache's hit and miss counts from a metrics page. */
function searchCacheFigures(body: string): { hit: number; miss: number } {
  const figure = (result: string) =>
    Number(
      new RegExp(`search_cache_requests\\{[^}]*result="${result}"[^}]*\\} (\\d+)`).exec(body)?.[1] ?? NaN,
    );
  return { hit: figure('hit'), miss: figure('miss') };
}
