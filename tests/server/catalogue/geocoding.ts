// A local stand-in for Google's Geocoding endpoint (same request and response format), so the
// real HTTP client code runs against a real socket in tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

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
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'OK', results: [{ geometry: { location: { lat, lng } } }] }));
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
