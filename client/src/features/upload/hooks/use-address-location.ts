// State behind an upload form's Location button and map: the position it keeps (sent with the form
// as latitude/longitude), from the device or placed on the map, and the address found for the
// device's position, by the maps key or the server's geocoder.
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { getRuntimeConfig } from '../../../lib/runtime-config.ts';
import { devicePosition, type GeolocationStatus } from '../../../lib/geolocation.ts';
import { reverseGeocode, serverAddress } from '../location.ts';
import type { Coordinates } from '../../../lib/coordinates.ts';

export type AddressLocation = {
  coords: Coordinates | null;
  locating: boolean;
  /** Shown under the address: what happened to the address after the position was found. */
  note: string | null;
  locate(fillAddress: (address: string) => void): Promise<void>;
  /** A position placed on the map by hand. */
  pick(coords: Coordinates): void;
  clear(): void;
};

async function mapsKey(): Promise<string | null> {
  try {
    return (await getRuntimeConfig()).google_maps_api_key;
  } catch {
    return null;
  }
}

export function useAddressLocation(): AddressLocation {
  const [status, setStatus] = useState<GeolocationStatus>('pending');
  const [coords, setCoords] = useState<Coordinates | null>(null);
  const [locating, setLocating] = useState(false);
  const [note, setNote] = useState<string | null>(null);

  async function locate(fillAddress: (address: string) => void) {
    setLocating(true);
    try {
      const outcome = await devicePosition(
        status,
        typeof navigator === 'undefined' ? undefined : navigator.geolocation,
      );
      setStatus(outcome.status);
      if (outcome.status === 'denied') return void toast.error(outcome.message);
      setCoords(outcome.coords);
      const key = await mapsKey();
      const found = key ? await reverseGeocode(outcome.coords, key) : await serverAddress(outcome.coords);
      if (found === 'off')
        return setNote('Your position was saved with this entry. Please type the address.');
      if ('address' in found) {
        fillAddress(found.address);
        setNote('Address filled in from your position. Check it before you submit.');
      } else {
        toast.error(found.problem);
        setNote('Your position was saved with this entry. Please type the address.');
      }
    } finally {
      setLocating(false);
    }
  }

  function pick(picked: Coordinates) {
    setCoords(picked);
    setNote('Position placed on the map.');
  }

  function clear() {
    setCoords(null);
    setNote(null);
  }

  return { coords, locating, note, locate, pick, clear };
}
