import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import {
  createGeocoder,
  geosearchGeocoder,
  googleGeocoder,
  nullGeocoder,
} from '../../../server/catalogue/geocoder.ts';
import {
  geosearchPoint as point,
  startFakeGeocodingService,
  startFakeGeosearch,
  FORMATTED_ADDRESS,
  type FakeGeocodingService,
} from './geocoding.ts';

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

  it('finds the address at a position, and tells nothing there from a failure', async () => {
    google.answer = { lat: 40.6872, lng: -73.9418 };
    expect(await geocoder().reverse({ latitude: 40.6872, longitude: -73.9418 })).toEqual({
      address: FORMATTED_ADDRESS,
    });
    expect(google.requests[0]!.searchParams.get('latlng')).toBe('40.6872,-73.9418');
    google.answer = 'zero';
    expect(await geocoder().reverse({ latitude: 0, longitude: 0 })).toBe('none');
    google.answer = 'error';
    expect(await geocoder().reverse({ latitude: 0, longitude: 0 })).toBe('failed');
  });

  it('answers null when nothing listens', async () => {
    const gone = googleGeocoder({ apiKey: 'k', endpoint: 'http://127.0.0.1:9/geocode', timeoutMs: 500 });
    expect(await gone.geocode('1 Grand St')).toBeNull();
  });
});

describe('choosing the geocoder', () => {
  const secret = { JWT_SECRET: 'a-secret-with-enough-entropy-0123456789' };
  const chosen = (env: NodeJS.ProcessEnv) => createGeocoder(loadConfig({ ...secret, ...env })).kind;

  it('is Google with a key, GeoSearch without one, nothing in tests or when turned off', () => {
    expect(chosen({ GEOCODER_API_KEY: 'k' })).toBe('google');
    expect(chosen({})).toBe('geosearch');
    expect(chosen({ NODE_ENV: 'test' })).toBe('none');
    expect(chosen({ GEOCODER: 'off', GEOCODER_API_KEY: 'k' })).toBe('none');
    expect(chosen({ GEOCODER: 'geosearch', GEOCODER_API_KEY: 'k' })).toBe('geosearch');
  });

  it('refuses an unknown geocoder, or Google without a key', () => {
    expect(() => loadConfig({ ...secret, GEOCODER: 'bing' })).toThrow(
      /GEOCODER must be one of google, geosearch, off/,
    );
    expect(() => loadConfig({ ...secret, GEOCODER: 'google' })).toThrow(
      /GEOCODER=google needs GEOCODER_API_KEY/,
    );
    expect(() => loadConfig({ ...secret, GEOSEARCH_URL: 'ftp://x' })).toThrow(/GEOSEARCH_URL/);
  });

  it('never gives a position without a geocoder', async () => {
    expect(await nullGeocoder.geocode('1 Grand St')).toBeNull();
  });
});

describe('GeoSearch (key-less)', () => {
  let service: Awaited<ReturnType<typeof startFakeGeosearch>>;
  const problems: string[] = [];
  beforeAll(async () => {
    service = await startFakeGeosearch();
  });
  afterAll(async () => service.close());
  beforeEach(() => {
    service.state.requests.length = 0;
    service.state.features = [];
    service.state.status = 200;
    service.state.delayMs = 0;
    problems.length = 0;
  });
  const geocoder = (options: { timeoutMs?: number; minIntervalMs?: number; maxWaiting?: number } = {}) =>
    geosearchGeocoder({
      endpoint: service.url,
      minIntervalMs: 0,
      ...options,
      onProblem: (p) => problems.push(p),
    });

  it('asks for the best match of the address and reads its point (longitude first)', async () => {
    service.state.features = [point(-73.9418, 40.6872)];
    expect(await geocoder().geocode('300 Nostrand Ave, Brooklyn')).toEqual({
      latitude: 40.6872,
      longitude: -73.9418,
    });
    const sent = service.state.requests[0]!.url;
    expect(sent.searchParams.get('text')).toBe('300 Nostrand Ave, Brooklyn');
    expect(sent.searchParams.get('size')).toBe('1');
  });

  it('takes no unsure match: a centroid, a fallback, a low confidence, a place outside the city', async () => {
    for (const feature of [
      point(-73.95, 40.65, { accuracy: 'centroid', layer: 'borough' }),
      point(-73.95, 40.65, { match_type: 'fallback' }),
      point(-73.95, 40.65, { confidence: 0.4 }),
      point(-118.24, 34.05),
      { geometry: { coordinates: ['x', 40.6] }, properties: {} },
    ]) {
      service.state.features = [feature];
      expect(await geocoder().geocode('1 Somewhere St')).toBeNull();
    }
    service.state.features = [];
    expect(await geocoder().geocode('Nowhere')).toBeNull();
    expect(problems).toEqual([]);
  });

  it('answers null and reports an HTTP error, a timeout, or nobody listening', async () => {
    service.state.status = 503;
    expect(await geocoder().geocode('1 Grand St')).toBeNull();
    expect(problems).toEqual(['HTTP 503']);
    service.state.status = 200;
    service.state.features = [point(-73.95, 40.65)];
    service.state.delayMs = 2000;
    const started = Date.now();
    expect(await geocoder({ timeoutMs: 200 }).geocode('1 Slow St')).toBeNull();
    expect(Date.now() - started).toBeLessThan(1500);
    expect(problems[1]).toMatch(/Timeout|Abort/);
    const gone = geosearchGeocoder({ endpoint: 'http://127.0.0.1:9/v2/search', timeoutMs: 500 });
    expect(await gone.geocode('1 Grand St')).toBeNull();
  });

  it('finds the labelled address at a position, when it is close enough to be the one there', async () => {
    const at = { latitude: 40.6872, longitude: -73.9418 };
    service.state.reverseFeatures = [
      point(-73.9419, 40.6871, { label: '300 NOSTRAND AVENUE, Brooklyn, NY', distance: 0.02 }),
    ];
    expect(await geocoder().reverse(at)).toEqual({ address: '300 NOSTRAND AVENUE, Brooklyn, NY' });
    const sent = service.state.requests[0]!.url;
    expect(sent.pathname).toBe('/v2/reverse');
    expect(sent.searchParams.get('point.lat')).toBe('40.6872');
    expect(sent.searchParams.get('point.lon')).toBe('-73.9418');
    service.state.reverseFeatures = [point(-73.95, 40.69, { label: 'Far Away', distance: 0.9 })];
    expect(await geocoder().reverse(at)).toBe('none');
    service.state.reverseFeatures = [];
    expect(await geocoder().reverse(at)).toBe('none');
    service.state.status = 500;
    expect(await geocoder().reverse(at)).toBe('failed');
  });

  it('starts at most one request per interval, and sheds what would wait too long', async () => {
    service.state.features = [point(-73.95, 40.65)];
    const spaced = geocoder({ minIntervalMs: 100, maxWaiting: 2 });
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map((a) => spaced.geocode(`${a} St`)));
    // The first starts at once, two wait their turn, the fourth would be a third in line.
    expect(answers.filter(Boolean)).toHaveLength(3);
    expect(answers[3]).toBeNull();
    expect(problems).toEqual(['too many requests waiting']);
    const starts = service.state.requests.map((r) => r.at);
    expect(starts).toHaveLength(3);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(90);
  });
});
