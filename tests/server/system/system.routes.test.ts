import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';

describe('system routes and the error contract', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers health and readiness', async () => {
    expect(await call(t.app, 'GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok' } });
    const ready = await call(t.app, 'GET', '/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ready');
  });

  it('serves the client settings', async () => {
    const res = await call(t.app, 'GET', '/api/config/');
    expect(res.body).toEqual({
      product_name: 'Bodega Cats',
      google_maps_api_key: null,
      map_style_url: null,
      nearby_radius_km: 10,
    });
  });

  it('answers unknown routes with a 404 in the error shape', async () => {
    const res = await call(t.app, 'GET', '/api/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String), code: 'not_found' });
  });

  it('answers CORS preflight with the contract headers', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/health',
      headers: {
        origin: 'http://example.test',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'If-Match, Idempotency-Key',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(String(res.headers['access-control-allow-headers'])).toContain('Idempotency-Key');
    expect(String(res.headers['access-control-allow-methods'])).toContain('DELETE');
  });

  it('gives every response a request id', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });
});
