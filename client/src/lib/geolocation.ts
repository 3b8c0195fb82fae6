// The device's position, for every Location button (search and the add forms): the state machine
// pending -> granted | denied and its messages. Once denied, pressing again only repeats how to
// enable location (the browser will not ask twice either).
import type { Coordinates } from './coordinates.ts';

export type GeolocationStatus = 'pending' | 'granted' | 'denied';

export const POSITION_MESSAGES = {
  unsupported: 'Geolocation is not supported by this browser',
  denied:
    'Location access denied. To enable it, allow location for this site in your browser settings (the icon next to the address bar), then reload the page and try again.',
  unavailable: 'Location unavailable. Please check your device settings and try again.',
  timeout: 'Location request timed out. Please try again.',
  unknown: 'Unable to get your location. Results will not be sorted by distance.',
} as const;

/** Time-out 15 s, a cached position up to 5 minutes old is fine, low accuracy is enough. */
export const POSITION_OPTIONS: PositionOptions = {
  enableHighAccuracy: false,
  timeout: 15_000,
  maximumAge: 5 * 60 * 1000,
};

export type PositionOutcome =
  { status: 'granted'; coords: Coordinates } | { status: 'denied'; message: string };

export function positionErrorMessage(error: Pick<GeolocationPositionError, 'code'>): string {
  switch (error.code) {
    case 1:
      return POSITION_MESSAGES.denied;
    case 2:
      return POSITION_MESSAGES.unavailable;
    case 3:
      return POSITION_MESSAGES.timeout;
    default:
      return POSITION_MESSAGES.unknown;
  }
}

/** One press of a Location button, from the current status to the next. */
export function devicePosition(
  status: GeolocationStatus,
  geolocation: Pick<Geolocation, 'getCurrentPosition'> | undefined,
): Promise<PositionOutcome> {
  if (!geolocation) return Promise.resolve({ status: 'denied', message: POSITION_MESSAGES.unsupported });
  if (status === 'denied') return Promise.resolve({ status: 'denied', message: POSITION_MESSAGES.denied });
  return new Promise((resolve) => {
    geolocation.getCurrentPosition(
      ({ coords }) => resolve({ status: 'granted', coords: { lat: coords.latitude, lng: coords.longitude } }),
      (error) => resolve({ status: 'denied', message: positionErrorMessage(error) }),
      POSITION_OPTIONS,
    );
  });
}
