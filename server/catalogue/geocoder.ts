// Turns a street address into coordinates. Google's Geocoding API when GEOCODER_API_KEY is set,
// otherwise nothing: an address without a known position gets null coordinates, never a guess.
// Callers geocode before opening the event transaction, so a slow geocoder never holds a lock.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Coordinates } from './validation.ts';

export type Geocoder = {
  readonly kind: 'google' | 'none';
  /** Coordinates of the address, or null when unknown (including any failure of the service). */
  geocode(address: string): Promise<Coordinates | null>;
};

export const nullGeocoder: Geocoder = { kind: 'none', geocode: async () => null };

export const GOOGLE_GEOCODE_URL = 'https://maps.googleapis.com/maps/api/geocode/json';
// Prefer matches inside New York City for addresses that exist in many towns ("12 Main St").
const NYC_BOUNDS = '40.4774,-74.2591|40.9176,-73.7004';

export type GoogleGeocoderOptions = {
  apiKey: string;
  timeoutMs?: number;
  endpoint?: string;
  onProblem?(problem: string, address: string): void;
};

type GoogleResponse = {
  status?: string;
  results?: { geometry?: { location?: { lat?: unknown; lng?: unknown } } }[];
};

export function googleGeocoder(options: GoogleGeocoderOptions): Geocoder {
  const endpoint = options.endpoint ?? GOOGLE_GEOCODE_URL;
  const timeoutMs = options.timeoutMs ?? 3000;
  const report = options.onProblem ?? (() => {});
  return {
    kind: 'google',
    async geocode(address) {
      const url = new URL(endpoint);
      url.searchParams.set('address', address);
      url.searchParams.set('bounds', NYC_BOUNDS);
      url.searchParams.set('region', 'us');
      url.searchParams.set('key', options.apiKey);
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
        if (!res.ok) {
          report(`HTTP ${res.status}`, address);
          return null;
        }
        const body = (await res.json()) as GoogleResponse;
        if (body.status !== 'OK') {
          if (body.status !== 'ZERO_RESULTS') report(`status ${body.status ?? 'missing'}`, address);
          return null;
        }
        return coordinatesFrom(body.results?.[0]?.geometry?.location);
      } catch (error) {
        report(error instanceof Error ? `${error.name}: ${error.message}` : String(error), address);
        return null;
      }
    },
  };
}

function coordinatesFrom(location: { lat?: unknown; lng?: unknown } | undefined): Coordinates | null {
  const { lat, lng } = location ?? {};
  if (typeof lat !== 'number' || typeof lng !== 'number') return null;
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180)
    return null;
  return { latitude: lat, longitude: lng };
}

export function createGeocoder(config: Pick<Config, 'geocoderApiKey'>, logger?: Logger): Geocoder {
  if (!config.geocoderApiKey) return nullGeocoder;
  return googleGeocoder({
    apiKey: config.geocoderApiKey,
    onProblem: (problem, address) => logger?.warn({ problem, address }, 'geocoding failed'),
  });
}
