// Local stand-ins for Google's Geocoding endpoint and for NYC's GeoSearch (same request and
// response formats), so the real HTTP client code runs against a real socket in tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The address the Google stand-in gives for any position it finds. */
export const FORMATTED_ADDRESS = '300 Nostrand Ave, Brooklyn, NY 11216, USA';

export type FakeGeocodingService = {
  url: string;
  requests: URL[];
  /** What the next requests get: a location, no result, an HTTP error, or no answer for a while. */
  answer: { lat: number; lng: number } | 'zero' | 'error' | { delayMs: number; lat: number; lng: number };
  close(): Promise<void>;
};

export async function startFakeGeocodingService(): Promise<FakeGeocodingService> {
  const service: FakeGeocodingService = {
    url: '',
    requests: [],
    answer: 'zero',
    close: async () => {},
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    service.requests.push(url);
    const answer = service.answer;
    const reply = (lat: number, lng: number) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          status: 'OK',
          results: [{ formatted_address: FORMATTED_ADDRESS, geometry: { location: { lat, lng } } }],
        }),
      );
    if (answer === 'error') res.writeHead(500).end('boom');
    else if (answer === 'zero')
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"status":"ZERO_RESULTS","results":[]}');
    else if ('delayMs' in answer) setTimeout(() => reply(answer.lat, answer.lng), answer.delayMs);
    else reply(answer.lat, answer.lng);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/maps/api/geocode/json`;
  service.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return service;
}

/** A local service speaking GeoSearch's format (a Pelias GeoJSON feature collection). */
export async function startFakeGeosearch() {
  const state = {
    requests: [] as { url: URL; at: number }[],
    features: [] as unknown[],
    reverseFeatures: [] as unknown[],
    status: 200,
    delayMs: 0,
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    state.requests.push({ url, at: Date.now() });
    const features = url.pathname.endsWith('/reverse') ? state.reverseFeatures : state.features;
    const body = JSON.stringify({ type: 'FeatureCollection', features });
    setTimeout(
      () => res.writeHead(state.status, { 'content-type': 'application/json' }).end(body),
      state.delayMs,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/search`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { state, url, close };
}

export const geosearchPoint = (lng: number, lat: number, properties: object = {}) => ({
  type: 'Feature',
  geometry: { type: 'Point', coordinates: [lng, lat] },
  properties: { layer: 'address', accuracy: 'point', confidence: 1, match_type: 'exact', ...properties },
});
