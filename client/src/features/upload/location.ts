// The upload forms' Location button: the device's position (lib/geolocation.ts, as on the search
// screen) and the street address found for it: by the browser's maps key when there is one,
// else by the server's geocoder (GET /api/geocode/reverse).
import { api, ApiError } from '../../lib/api.ts';
import type { Coordinates } from '../../lib/coordinates.ts';

export const LOCATION_MESSAGES = {
  noAddress: 'Could not find address for current location',
  addressError: 'Error getting address from location',
} as const;

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
