// GET /api/geocode/reverse: the address at a position from the server's geocoder (here GeoSearch,
// answered by a local stand-in speaking its format), its codes, and the answer when it is off.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { geosearchPoint, startFakeGeosearch } from './geocoding.ts';
import { send, signUp, type Caller } from './signed-in.ts';

describe('GET /api/geocode/reverse', () => {
  let t: TestApp;
  let service: Awaited<ReturnType<typeof startFakeGeosearch>>;
  let alice: Caller;
  beforeAll(async () => {
    service = await startFakeGeosearch();
    t = await createTestApp({ config: { geocoder: 'geosearch', geosearchUrl: service.url } });
    alice = await signUp(t, 'alice');
  });
  afterAll(async () => {
    await t.close();
    await service.close();
  });
  beforeEach(() => {
    service.state.status = 200;
    service.state.reverseFeatures = [];
  });

  const reverse = (query: string, caller: Caller | null = alice) =>
    send(t, 'GET', `/api/geocode/reverse?${query}`, caller ? { caller } : {});

  it('answers the street address at the position', async () => {
    service.state.reverseFeatures = [
      geosearchPoint(-73.9418, 40.6872, { label: '300 NOSTRAND AVENUE, Brooklyn, NY', distance: 0.01 }),
    ];
    const res = await reverse('lat=40.6872&lng=-73.9418');
    expect(res).toMatchObject({ status: 200, body: { address: '300 NOSTRAND AVENUE, Brooklyn, NY' } });
  });

  it('answers 404 where there is no address, 503 when the service fails', async () => {
    expect(await reverse('lat=40.6&lng=-73.9')).toMatchObject({
      status: 404,
      body: { code: 'not_found', error: 'No street address was found at this position.' },
    });
    service.state.status = 502;
    expect(await reverse('lat=40.6&lng=-73.9')).toMatchObject({ status: 503, body: { code: 'unavailable' } });
  });

  it('answers 400 to a missing or impossible position, 401 signed out', async () => {
    for (const query of ['', 'lat=40.6', 'lat=91&lng=0', 'lat=0&lng=-181', 'lat=x&lng=1'])
      expect((await reverse(query)).status, query).toBe(400);
    expect((await reverse('lat=40.6&lng=-73.9', null)).status).toBe(401);
  });
});

describe('GET /api/geocode/reverse with geocoding off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers 503 geocoding_off', async () => {
    const alice = await signUp(t, 'alice');
    const res = await send(t, 'GET', '/api/geocode/reverse?lat=40.6&lng=-73.9', { caller: alice });
    expect(res).toMatchObject({ status: 503, body: { code: 'geocoding_off' } });
  });
});
