// The search screen's Location button: the device's position (lib/geolocation.ts), and on success
// the news that results are now sorted by distance.
import type { Coordinates } from '../../../lib/coordinates.ts';
import { devicePosition, POSITION_MESSAGES, type GeolocationStatus } from '../../../lib/geolocation.ts';

export { POSITION_OPTIONS, type GeolocationStatus } from '../../../lib/geolocation.ts';

export const GEOLOCATION_MESSAGES = {
  ...POSITION_MESSAGES,
  success: 'Location detected! Results sorted by distance.',
} as const;

export type LocateOutcome =
  | { status: 'granted'; coords: Coordinates; message: string }
  | { status: 'denied'; coords: null; message: string };

/** One press of the Location button, from the current status to the next. */
export async function locate(
  status: GeolocationStatus,
  geolocation: Pick<Geolocation, 'getCurrentPosition'> | undefined,
): Promise<LocateOutcome> {
  const outcome = await devicePosition(status, geolocation);
  return outcome.status === 'granted'
    ? { ...outcome, message: GEOLOCATION_MESSAGES.success }
    : { ...outcome, coords: null };
}
