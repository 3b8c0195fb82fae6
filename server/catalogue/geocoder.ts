// Turns a street address into coordinates: Google's Geocoding API when GEOCODER_API_KEY is set,
// otherwise NYC Planning's key-less GeoSearch (GEOCODER=geosearch, the default outside tests), or
// nothing (GEOCODER=off). An address without a known position gets null coordinates, never a
// guess: any failure, timeout or unsure match is null. Callers geocode before opening the event
// transaction, so a slow geocoder never holds a lock.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Coordinates } from './validation.ts';

/** What a position's address lookup found: the address, nothing there, or the service failed. */
export type AddressOutcome = { address: string } | 'none' | 'failed';

export type Geocoder = {
  readonly kind: 'google' | 'geosearch' | 'none';
  /** Coordinates of the address, or null when unknown (including any failure of the service). */
  geocode(address: string): Promise<Coordinates | null>;
  /** The street address at a position (for a form's Location button). */
  reverse(position: Coordinates): Promise<AddressOutcome>;
};

export const nullGeocoder: Geocoder = {
  kind: 'none',
  geocode: async () => null,
  reverse: async () => 'failed',
};

/** One GET of a JSON answer within the timeout; null (the problem reported) on any failure. */
async function getJson<T>(
  url: URL,
  timeoutMs: number,
  report: (problem: string, subject: string) => void,
  subject: string,
): Promise<T | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) {
      report(`HTTP ${res.status}`, subject);
      return null;
    }
    return (await res.json()) as T;
  } catch (error) {
    report(error instanceof Error ? `${error.name}: ${error.message}` : String(error), subject);
    return null;
  }
}

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
  results?: { formatted_address?: unknown; geometry?: { location?: { lat?: unknown; lng?: unknown } } }[];
};

export function googleGeocoder(options: GoogleGeocoderOptions): Geocoder {
  const endpoint = options.endpoint ?? GOOGLE_GEOCODE_URL;
  const timeoutMs = options.timeoutMs ?? 3000;
  const report = options.onProblem ?? (() => {});
  /** The answer when Google found something; null for no result (quietly) or a failure. */
  async function ask(params: Record<string, string>, subject: string): Promise<GoogleResponse | null> {
    const url = new URL(endpoint);
    for (const [name, value] of Object.entries({ ...params, region: 'us', key: options.apiKey }))
      url.searchParams.set(name, value);
    const body = await getJson<GoogleResponse>(url, timeoutMs, report, subject);
    if (body && body.status !== 'OK' && body.status !== 'ZERO_RESULTS')
      report(`status ${body.status ?? 'missing'}`, subject);
    return body;
  }
  return {
    kind: 'google',
    async geocode(address) {
      const body = await ask({ address, bounds: NYC_BOUNDS }, address);
      return body?.status === 'OK' ? coordinatesFrom(body.results?.[0]?.geometry?.location) : null;
    },
    async reverse({ latitude, longitude }) {
      const body = await ask({ latlng: `${latitude},${longitude}` }, `${latitude},${longitude}`);
      if (!body || (body.status !== 'OK' && body.status !== 'ZERO_RESULTS')) return 'failed';
      const address = body.results?.[0]?.formatted_address;
      return typeof address === 'string' && address ? { address } : 'none';
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

export const GEOSEARCH_URL = 'https://geosearch.planninglabs.nyc/v2/search';
// New York City with a little margin: GeoSearch knows only the city, and anything it answers
// outside it is not an address of ours.
const NYC_BOX = { south: 40.47, north: 40.93, west: -74.27, east: -73.68 };
/** Matches less sure than this (Pelias' 0..1 confidence) are not taken. */
const MIN_CONFIDENCE = 0.8;

export type GeosearchGeocoderOptions = {
  endpoint?: string;
  timeoutMs?: number;
  /** At most one request starts per this many ms (a public service: 5 a second at most). */
  minIntervalMs?: number;
  /** Requests allowed to wait for their turn; more answer null at once instead of queueing. */
  maxWaiting?: number;
  onProblem?(problem: string, address: string): void;
};

type GeosearchFeature = {
  geometry?: { coordinates?: unknown };
  properties?: {
    confidence?: unknown;
    accuracy?: unknown;
    match_type?: unknown;
    label?: unknown;
    /** Reverse answers: how far the address is from the position asked about, in km. */
    distance?: unknown;
  };
};
/** A reverse answer farther than this from the position is not the address there. */
const MAX_REVERSE_KM = 0.15;

/**
 * NYC Planning Labs' GeoSearch (a Pelias service over the city's Property Address Directory).
 * Only a point match that Pelias is sure of counts: a street or borough centroid, a fallback match
 * or a low confidence is no position.
 */
export function geosearchGeocoder(options: GeosearchGeocoderOptions = {}): Geocoder {
  const endpoint = options.endpoint ?? GEOSEARCH_URL;
  const timeoutMs = options.timeoutMs ?? 3000;
  const minIntervalMs = options.minIntervalMs ?? 200;
  const maxWaiting = options.maxWaiting ?? 20;
  const report = options.onProblem ?? (() => {});
  let nextStart = 0;
  let waiting = 0;

  /** Waits for this request's turn; false when too many already wait. */
  async function turn(): Promise<boolean> {
    if (waiting >= maxWaiting) return false;
    const now = Date.now();
    const start = Math.max(now, nextStart);
    nextStart = start + minIntervalMs;
    if (start > now) {
      waiting += 1;
      await new Promise((resolve) => setTimeout(resolve, start - now));
      waiting -= 1;
    }
    return true;
  }

  // Reverse lookups go to the service's /reverse beside its /search.
  const reverseEndpoint = endpoint.replace(/search\/?$/, 'reverse');

  return {
    kind: 'geosearch',
    async geocode(address) {
      if (!(await turn())) {
        report('too many requests waiting', address);
        return null;
      }
      const url = new URL(endpoint);
      url.searchParams.set('text', address);
      url.searchParams.set('size', '1');
      const body = await getJson<{ features?: GeosearchFeature[] }>(url, timeoutMs, report, address);
      return sureCoordinates(body?.features?.[0]);
    },
    async reverse({ latitude, longitude }) {
      const subject = `${latitude},${longitude}`;
      if (!(await turn())) {
        report('too many requests waiting', subject);
        return 'failed';
      }
      const url = new URL(reverseEndpoint);
      url.searchParams.set('point.lat', String(latitude));
      url.searchParams.set('point.lon', String(longitude));
      url.searchParams.set('size', '1');
      const body = await getJson<{ features?: GeosearchFeature[] }>(url, timeoutMs, report, subject);
      if (!body) return 'failed';
      const { label, distance } = body.features?.[0]?.properties ?? {};
      if (typeof label !== 'string' || !label) return 'none';
      if (typeof distance === 'number' && distance > MAX_REVERSE_KM) return 'none';
      return { address: label };
    },
  };
}

function sureCoordinates(feature: GeosearchFeature | undefined): Coordinates | null {
  const { confidence, accuracy, match_type: matchType } = feature?.properties ?? {};
  if (typeof confidence === 'number' && confidence < MIN_CONFIDENCE) return null;
  if (accuracy !== undefined && accuracy !== 'point') return null;
  if (matchType === 'fallback') return null;
  const coordinates = feature?.geometry?.coordinates;
  if (!Array.isArray(coordinates)) return null;
  const [lng, lat] = coordinates as unknown[];
  const found = coordinatesFrom({ lat, lng });
  if (!found) return null;
  const inCity =
    found.latitude >= NYC_BOX.south &&
    found.latitude <= NYC_BOX.north &&
    found.longitude >= NYC_BOX.west &&
    found.longitude <= NYC_BOX.east;
  return inCity ? found : null;
}

export function createGeocoder(
  config: Pick<Config, 'geocoder' | 'geocoderApiKey' | 'geosearchUrl'>,
  logger?: Logger,
): Geocoder {
  const onProblem = (problem: string, address: string) =>
    logger?.warn({ problem, address, geocoder: config.geocoder }, 'geocoding failed');
  if (config.geocoder === 'google' && config.geocoderApiKey)
    return googleGeocoder({ apiKey: config.geocoderApiKey, onProblem });
  if (config.geocoder === 'geosearch') return geosearchGeocoder({ endpoint: config.geosearchUrl, onProblem });
  return nullGeocoder;
}
