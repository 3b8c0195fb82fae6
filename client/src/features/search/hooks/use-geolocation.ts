import { useCallback, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { locate, type GeolocationStatus } from '../model/geolocation.ts';
import type { Coordinates } from '../../../lib/coordinates.ts';

/** The user's position for nearby search, asked for only when they press Location. */
export function useGeolocation() {
  const [status, setStatus] = useState<GeolocationStatus>('pending');
  const [coords, setCoords] = useState<Coordinates | null>(null);
  const [locating, setLocating] = useState(false);

  const requestLocation = useCallback(async () => {
    setLocating(true);
    const outcome = await locate(
      status,
      typeof navigator === 'undefined' ? undefined : navigator.geolocation,
    );
    setLocating(false);
    setStatus(outcome.status);
    if (outcome.status === 'granted') {
      setCoords(outcome.coords);
      toast.success(outcome.message);
    } else {
      toast.error(outcome.message);
    }
  }, [status]);

  return { status, coords, locating, requestLocation };
}
