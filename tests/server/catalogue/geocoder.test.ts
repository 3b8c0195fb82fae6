import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGeocoder, googleGeocoder, nullGeocoder } from '../../../server/catalogue/geocoder.ts';
import { startFakeGeocodingService, type FakeGeocodingService } from './geocoding.ts';

describe('geocoders', () => {
  let google: FakeGeocodingService;
  const problems: string[] = [];
  beforeAll(async () => {
    google = await startFakeGeocodingService();
  });
  afterAll(async () => google.close());
  beforeEach(() => {
    google.requests.length = 0;
    problems.length = 0;
  });

  const geocoder = (timeoutMs = 5000) =>
    googleGeocoder({
      apiKey: 'secret-key',
      endpoint: google.url,
      timeoutMs,
      onProblem: (problem) => problems.push(problem),
    });

  it('asks Google for the address, biased to New York, and reads the first location', async () => {
    google.answer = { lat: 40.7081, lng: -73.9571 };
    expect(await geocoder().geocode('1 Grand St, Brooklyn')).toEqual({
      latitude: 40.7081,
      longitude: -73.9571,
    });
    const sent = google.requests[0]!;
    expect(sent.searchParams.get('address')).toBe('1 Grand St, Brooklyn');
    expect(sent.searchParams.get('key')).toBe('secret-key');
    expect(sent.searchParams.get('bounds')).toMatch(/^40\.\d+,-74\.\d+\|40\.\d+,-73\.\d+$/);
  });

  it('answers null, quietly, for an address Google does not know', async () => {
    google.answer = 'zero';
    expect(await geocoder().geocode('Nowhere')).toBeNull();
    expect(problems).toEqual([]);
  });

  it('answers null and reports the problem when Google fails', async () => {
    google.answer = 'error';
    expect(await geocoder().geocode('1 Grand St')).toBeNull();
    expect(problems).toEqual(['HTTP 500']);
  });

  it('gives up after its timeout', async () => {
    google.answer = { delayMs: 4000, lat: 1, lng: 1 };
    const started = Date.now();
    expect(await geocoder(300).geocode('1 Slow St')).toBeNull();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(problems[0]).toMatch(/Timeout|Abort/);
  });

  it('answers null when nothing listens', async () => {
    const gone = googleGeocoder({ apiKey: 'k', endpoint: 'http://127.0.0.1:9/geocode', timeoutMs: 500 });
    expect(await gone.geocode('1 Grand St')).toBeNull();
  });

  it('is Google only when a key is configured; otherwise never a position', async () => {
    expect(createGeocoder({ geocoderApiKey: null })).toBe(nullGeocoder);
    expect(createGeocoder({ geocoderApiKey: 'k' }).kind).toBe('google');
    expect(await nullGeocoder.geocode('1 Grand St')).toBeNull();
  });
});
