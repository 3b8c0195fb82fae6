// The catalogue with GEOCODER_API_KEY set. Calls to Google's host are sent to a local stand-in
// speaking the same format; everything else about the request is the real client code.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GOOGLE_GEOCODE_URL } from '../../../server/catalogue/geocoder.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { startFakeGeocodingService, type FakeGeocodingService } from './geocoding.ts';
import { send, signUp, type Caller } from './signed-in.ts';

describe('geocoding of new and moved bodegas', () => {
  let t: TestApp;
  let google: FakeGeocodingService;
  let alice: Caller;
  beforeAll(async () => {
    google = await startFakeGeocodingService();
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      return realFetch(
        url.startsWith(GOOGLE_GEOCODE_URL) ? url.replace(GOOGLE_GEOCODE_URL, google.url) : input,
        init,
      );
    });
    t = await createTestApp({ config: { geocoder: 'google', geocoderApiKey: 'test-key' } });
    alice = await signUp(t, 'alice');
  });
  afterAll(async () => {
    await t.close();
    await google.close();
    vi.unstubAllGlobals();
  });
  beforeEach(() => {
    google.requests.length = 0;
  });

  it('places a new bodega where the geocoder says', async () => {
    google.answer = { lat: 40.6872, lng: -73.9418 };
    const res = await send(t, 'POST', '/api/bodegas', {
      caller: alice,
      body: { name: 'Geo Deli', address: '300 Nostrand Ave, Brooklyn' },
    });
    expect(res.body.bodega).toMatchObject({ latitude: 40.6872, longitude: -73.9418 });
    expect(google.requests.map((r) => r.searchParams.get('address'))).toEqual(['300 Nostrand Ave, Brooklyn']);
  });

  it('places a cat’s new bodega where the geocoder says; a known bodega needs no lookup', async () => {
    google.answer = { lat: 40.7644, lng: -73.9235 };
    const body = { name: 'Ditmars', bodega_name: 'Astoria Mini Market', address: '31-01 Ditmars Blvd' };
    const first = await send(t, 'POST', '/api/cats', { caller: alice, body });
    expect(first.body.cat).toMatchObject({ latitude: 40.7644, longitude: -73.9235 });
    expect(google.requests).toHaveLength(1);
    await send(t, 'POST', '/api/cats', { caller: alice, body: { ...body, name: 'Steinway' } });
    expect(google.requests).toHaveLength(1);
  });

  it('prefers the coordinates in the body and does not ask', async () => {
    const res = await send(t, 'POST', '/api/bodegas', {
      caller: alice,
      body: { name: 'Pinned Deli', address: '1 Pin St', latitude: 40.5, longitude: -74.1 },
    });
    expect(res.body.bodega).toMatchObject({ latitude: 40.5, longitude: -74.1 });
    expect(google.requests).toHaveLength(0);
  });

  it('leaves the position unknown when the geocoder fails, and still adds the bodega', async () => {
    google.answer = 'error';
    const res = await send(t, 'POST', '/api/bodegas', {
      caller: alice,
      body: { name: 'Unlucky Deli', address: '13 Fail St' },
    });
    expect(res.status).toBe(201);
    expect(res.body.bodega).toMatchObject({ latitude: null, longitude: null });
  });

  it('geocodes a changed address again, and only a changed one', async () => {
    google.answer = { lat: 40.8, lng: -73.95 };
    const created = await send(t, 'POST', '/api/bodegas', {
      caller: alice,
      body: { name: 'Moving Deli', address: '1 Old St' },
    });
    const id = created.body.bodega.id;
    google.answer = { lat: 40.81, lng: -73.96 };
    const described = await send(t, 'PUT', `/api/bodegas/${id}`, {
      caller: alice,
      body: { name: 'Moving Deli', address: '1 OLD  St', description: 'Same place' },
    });
    expect(described.body.bodega).toMatchObject({ latitude: 40.8, longitude: -73.95 });
    expect(google.requests).toHaveLength(1);
    const moved = await send(t, 'PUT', `/api/bodegas/${id}`, {
      caller: alice,
      body: { name: 'Moving Deli', address: '2 New St' },
    });
    expect(moved.body.bodega).toMatchObject({ latitude: 40.81, longitude: -73.96 });
    expect(moved.body.cats).toEqual([]);
    expect(google.requests.map((r) => r.searchParams.get('address'))).toEqual(['1 Old St', '2 New St']);
  });

  it('looks up the address before opening the transaction, so a slow geocoder blocks no one', async () => {
    google.answer = { delayMs: 2000, lat: 40.7, lng: -73.9 };
    let slowDone = false;
    const slow = send(t, 'POST', '/api/bodegas', {
      caller: alice,
      body: { name: 'Slow Deli', address: '9 Slow St' },
    });
    void slow.then(() => (slowDone = true));
    await new Promise((r) => setTimeout(r, 150));
    const other = await send(t, 'POST', '/api/bodegas', {
      caller: alice,
      body: { name: 'Quick Deli', address: '8 Quick St', latitude: 40.6, longitude: -73.8 },
    });
    expect(other.status).toBe(201);
    expect(slowDone).toBe(false);
    expect((await slow).body.bodega).toMatchObject({ latitude: 40.7, longitude: -73.9 });
  });
});
