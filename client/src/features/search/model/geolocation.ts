// The Location button's state machine: pending -> granted | denied. Once denied, pressing again
// only repeats how to enable location (the browser will not ask twice either).
import type { Coordinates } from '../../../lib/coordinates.ts';

export type GeolocationStatus = 'pending' | 'granted' | 'denied';

export const GEOLOCATION_MESSAGES = {
  unsupported: 'Geolocation is not supported by this browser',
  denied:
    'Location access denied. To enable it, allow location for this site in your browser settings (the icon next to the address bar), then reload the page and try again.',
  unavailable: 'Location unavailable. Please check your device settings and try again.',
  timeout: 'Location request timed out. Please try again.',
  unknown: 'Unable to get your location. Results will not be sorted by distance.',
  success: 'Location detected! Results sorted by distance.',
} as const;

/** Time-out 15 s, a cached position up to 5 minutes old is fine, low accuracy is enough. */
export const POSITION_OPTIONS: PositionOptions = {
  enableHighAccuracy: false,
  timeout: 15_000,
  maximumAge: 5 * 60 * 1000,
};

export type LocateOutcome =
  | { status: 'granted'; coords: Coordinates; message: string }
  | { status: 'denied'; coords: null; message: string };

export function positionErrorMessage(error: Pick<GeolocationPositionError, 'code'>): string {
  switch (error.code) {
    case 1:
      return GEOLOCATION_MESSAGES.denied;
    case 2:
      return GEOLOCATION_MESSAGES.unavailable;
    case 3:
      return GEOLOCATION_MESSAGES.timeout;
    default:
      return GEOLOCATION_MESSAGES.unknown;
  }
}

/** One press of the Location button, from the current status to the next. */
export function locate(
  status: GeolocationStatus,
  geolocation: Pick<Geolocation, 'getCurrentPosition'> | undefined,
): Promise<LocateOutcome> {
  if (!geolocation) {
    return Promise.resolve({ status: 'denied', coords: null, message: GEOLOCATION_MESSAGES.unsupported });
  }
  if (status === 'denied') {
    return Promise.resolve({ status: 'denied', coords: null, message: GEOLOCATION_MESSAGES.denied });
  }
  return new Promise((resolve) => {
    geolocation.getCurrentPosition(
      (position) =>
        resolve({
          status: 'granted',
          coords: { lat: position.coords.latitude, lng: position.coords.longitude },
          message: GEOLOCATION_MESSAGES.success,
        }),
      (error) => resolve({ status: 'denied', coords: null, message: positionErrorMessage(error) }),
      POSITION_OPTIONS,
    );
  });
}
