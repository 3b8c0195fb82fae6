import { describe, expect, it, vi } from 'vitest';
import {
  GEOLOCATION_MESSAGES,
  POSITION_OPTIONS,
  locate,
} from '../../../../client/src/features/search/model/geolocation.ts';

function deviceAnswering(answer: { lat: number; lng: number } | { code: number }) {
  return {
    getCurrentPosition: vi.fn((success: PositionCallback, failure?: PositionErrorCallback | null) => {
      if ('code' in answer) failure?.({ code: answer.code } as GeolocationPositionError);
      else success({ coords: { latitude: answer.lat, longitude: answer.lng } } as GeolocationPosition);
    }),
  };
}

describe('the Location button', () => {
  it('sets denied with the unsupported message when the browser has no geolocation', async () => {
    expect(await locate('pending', undefined)).toEqual({
      status: 'denied',
      coords: null,
      message: 'Geolocation is not supported by this browser',
    });
  });

  it('stores the position, sets granted and confirms on success', async () => {
    const device = deviceAnswering({ lat: 40.75, lng: -73.98 });
    expect(await locate('pending', device)).toEqual({
      status: 'granted',
      coords: { lat: 40.75, lng: -73.98 },
      message: 'Location detected! Results sorted by distance.',
    });
    expect(device.getCurrentPosition).toHaveBeenCalledWith(
      expect.any(Function),
      expect.any(Function),
      POSITION_OPTIONS,
    );
  });

  it('asks for a low-accuracy position within 15 s, accepting one up to 5 minutes old', () => {
    expect(POSITION_OPTIONS).toEqual({ enableHighAccuracy: false, timeout: 15000, maximumAge: 300000 });
  });

  it.each([
    [1, GEOLOCATION_MESSAGES.denied],
    [2, 'Location unavailable. Please check your device settings and try again.'],
    [3, 'Location request timed out. Please try again.'],
    [9, 'Unable to get your location. Results will not be sorted by distance.'],
  ])('sets denied on failure code %i with its message', async (code, message) => {
    expect(await locate('pending', deviceAnswering({ code }))).toEqual({
      status: 'denied',
      coords: null,
      message,
    });
  });

  it('tells the user how to enable location on a permission refusal', () => {
    expect(GEOLOCATION_MESSAGES.denied).toMatch(/enable/i);
  });

  it('only repeats the denied message once denied, without asking the device again', async () => {
    const device = deviceAnswering({ lat: 1, lng: 2 });
    expect(await locate('denied', device)).toEqual({
      status: 'denied',
      coords: null,
      message: GEOLOCATION_MESSAGES.denied,
    });
    expect(device.getCurrentPosition).not.toHaveBeenCalled();
  });

  it('asks again when already granted (the user may have moved)', async () => {
    const device = deviceAnswering({ lat: 3, lng: 4 });
    expect((await locate('granted', device)).coords).toEqual({ lat: 3, lng: 4 });
  });
});
