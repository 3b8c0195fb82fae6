// What the api tells about itself: HSTS only on answers to requests that came over HTTPS (never on
// plain HTTP, where browsers ignore it and it only says the host also speaks HTTPS), and the API
// documentation only where API_DOCS leaves it public.
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../../server/config.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

const apps: TestApp[] = [];
async function appWith(config: Partial<Config>): Promise<TestApp> {
  const t = await createTestApp({ worker: false, config });
  apps.push(t);
  return t;
}

afterAll(async () => {
  for (const t of apps) await t.close();
});

describe('Strict-Transport-Security', () => {
  it('is sent only when the request came over HTTPS through a trusted proxy', async () => {
    const t = await appWith({ trustProxy: ['127.0.0.1'] });
    const plain = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // The other security headers are there either way.
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    for (const url of ['/api/health', '/api/no-such-thing']) {
      const secure = await t.app.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } });
      expect(secure.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    }
  });

  it('is not sent when an untrusted client claims HTTPS', async () => {
    const t = await appWith({ trustProxy: false });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('API_DOCS', () => {
  it('serves the docs by default and answers 404 in the error shape when off', async () => {
    expect(loadConfig({ NODE_ENV: 'test' }).apiDocs).toBe('public');
    expect(loadConfig({ NODE_ENV: 'test', API_DOCS: 'off' }).apiDocs).toBe('off');
    expect(() => loadConfig({ NODE_ENV: 'test', API_DOCS: 'private' })).toThrow(ConfigError);

    const open = await appWith({ apiDocs: 'public' });
    expect((await open.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);

    const closed = await appWith({ apiDocs: 'off' });
    for (const url of ['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/static/index.html']) {
      const res = await closed.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'not_found' });
    }
    // Everything else works as before.
    expect((await closed.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});
