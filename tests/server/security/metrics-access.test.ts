// /metrics is not public (API.md, Operations endpoints): a bearer METRICS_TOKEN when set; without
// one, 404 in production and open in development.
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../../server/config.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('access to /metrics', () => {
  const apps: TestApp[] = [];
  const appWith = async (config: Partial<Config>) => {
    const t = await createTestApp({ worker: false, config });
    apps.push(t);
    return t;
  };
  afterAll(async () => {
    for (const t of apps) await t.close();
  });
  const scrape = (t: TestApp, authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  it('asks for the bearer token when METRICS_TOKEN is set', async () => {
    const t = await appWith({ env: 'production', metricsToken: TOKEN });
    for (const authorization of [
      undefined,
      'Bearer wrong-token',
      `Bearer ${TOKEN}x`,
      `Basic ${Buffer.from(`prometheus:${TOKEN}`).toString('base64')}`,
      TOKEN,
    ]) {
      const res = await scrape(t, authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json()).toEqual({ error: expect.stringContaining('METRICS_TOKEN'), code: 'unauthorized' });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.body).not.toContain('http_requests_total');
    }
    const ok = await scrape(t, `Bearer ${TOKEN}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('http_requests_total');
  });

  it('is absent in production without a token', async () => {
    const t = await appWith({ env: 'production', metricsToken: null });
    const res = await scrape(t, `Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'No route for GET /metrics', code: 'not_found' });
  });

  it('stays open in development without a token', async () => {
    const t = await appWith({ env: 'development', metricsToken: null });
    const res = await scrape(t);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('http_requests_total');
  });

  it('reads METRICS_TOKEN from the environment and wants a long one in production', () => {
    expect(loadConfig({ NODE_ENV: 'test', METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(loadConfig({ NODE_ENV: 'test' }).metricsToken).toBeNull();
    const secret = 'f3b1c9e27a4d58e06b1f2c3d4e5f60718293a4b5c6d7e8f9';
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret, METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN must be at least 16 characters/,
    );
  });
});
