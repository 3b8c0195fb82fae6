// The upload forms' Location button: the device's position (pending -> granted | denied, as on the
// search screen) and the street address found for it: by the browser's maps key when there is one,
// else by the server's geocoder (GET /api/geocode/reverse).
import { api, ApiError } from '../../lib/api.ts';
import type { Coordinates } from '../../lib/coordinates.ts';

export type GeolocationStatus = 'pending' | 'granted' | 'denied';

export const LOCATION_MESSAGES = {
  unsupported: 'Geolocation is not supported by this browser',
  denied:
    'Location access denied. To enable it, allow location for this site in your browser settings (the icon next to the address bar), then reload the page and try again.',
  unavailable: 'Location unavailable. Please check your device settings and try again.',
  timeout: 'Location request timed out. Please try again.',
  unknown: 'Unable to get your location. Results will not be sorted by distance.',
  noAddress: 'Could not find address for current location',
  addressError: 'Error getting address from location',
} as const;

/** Time-out 15 s, a cached position up to 5 minutes old is fine, low accuracy is enough. */
export const POSITION_OPTIONS: PositionOptions = {
  enableHighAccuracy: false,
  timeout: 15_000,
  maximumAge: 300_000,
};

export type PositionOutcome =
  { status: 'granted'; coords: Coordinates } | { status: 'denied'; message: string };

function positionErrorMessage(code: number): string {
  if (code === 1) return LOCATION_MESSAGES.denied;
  if (code === 2) return LOCATION_MESSAGES.unavailable;
  if (code === 3) return LOCATION_MESSAGES.timeout;
  return LOCATION_MESSAGES.unknown;
}

/** One press of the Location button, from the current status to the next. */
export function devicePosition(
  status: GeolocationStatus,
  geolocation: Pick<Geolocation, 'getCurrentPosition'> | undefined,
): Promise<PositionOutcome> {
  if (!geolocation) return Promise.resolve({ status: 'denied', message: LOCATION_MESSAGES.unsupported });
  if (status === 'denied') return Promise.resolve({ status: 'denied', message: LOCATION_MESSAGES.denied });
  return new Promise((resolve) => {
    geolocation.getCurrentPosition(
      ({ coords }) => resolve({ status: 'granted', coords: { lat: coords.latitude, lng: coords.longitude } }),
      (error) => resolve({ status: 'denied', message: positionErrorMessage(error.code) }),
      POSITION_OPTIONS,
    );
  });
}

/** An address, a problem to tell the user, or `off`: no address lookup is available at all. */
export type AddressOutcome = { address: string } | { problem: string } | 'off';

const GEOCODE_URL = 'https://maps.googleapis.com/maps/api/geocode/json';

/**
 * The first formatted address the maps service gives for a position. A bare request: no
 * Authorization header and no cookies, so nothing of the user's session ever reaches the service.
 */
export async function reverseGeocode(
  { lat, lng }: Coordinates,
  mapsKey: string,
  fetchImpl: typeof fetch = fetch,
): Promise<AddressOutcome> {
  const url = `${GEOCODE_URL}?${new URLSearchParams({ latlng: `${lat},${lng}`, key: mapsKey })}`;
  try {
    const response = await fetchImpl(url, { credentials: 'omit', referrerPolicy: 'no-referrer' });
    const body = (await response.json()) as { status?: string; results?: { formatted_address?: string }[] };
    const address = body.results?.[0]?.formatted_address;
    if (response.ok && body.status === 'OK' && address) return { address };
    if (response.ok && body.status === 'ZERO_RESULTS') return { problem: LOCATION_MESSAGES.noAddress };
    return { problem: LOCATION_MESSAGES.addressError };
  } catch {
    return { problem: LOCATION_MESSAGES.addressError };
  }
}

/** The address the server's geocoder finds for a position. */
export async function serverAddress(
  { lat, lng }: Coordinates,
  get: typeof api.get = api.get,
): Promise<AddressOutcome> {
  try {
    const { address } = await get<{ address?: unknown }>('/api/geocode/reverse', { query: { lat, lng } });
    return typeof address === 'string' && address ? { address } : { problem: LOCATION_MESSAGES.addressError };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'geocoding_off') return 'off';
    if (error instanceof ApiError && error.status === 404) return { problem: LOCATION_MESSAGES.noAddress };
    return { problem: LOCATION_MESSAGES.addressError };
  }
}

export function formatCoordinates({ lat, lng }: Coordinates): string {
  return `${lat.toFixed(5)}, ${lng.toFixed(5)}`;
}
