import { describe, expect, it, vi } from 'vitest';
import {
  loadMapsScript,
  mapsScriptUrl,
  retryWait,
} from '../../../../client/src/features/search/components/map/maps-loader.ts';
import { classifyMapError } from '../../../../client/src/features/search/components/map/map-errors.ts';
import {
  fitBounds,
  fromScreen,
  toScreen,
} from '../../../../client/src/features/search/components/map/projection.ts';
import { spreadOverlapping } from '../../../../client/src/features/search/components/map/spread.ts';

describe('loading the maps script', () => {
  it('asks for the weekly version with the places library', () => {
    const url = new URL(mapsScriptUrl('KEY'));
    expect(url.searchParams.get('key')).toBe('KEY');
    expect(url.searchParams.get('v')).toBe('weekly');
    expect(url.searchParams.get('libraries')).toBe('places');
  });

  it('waits attempt x 2^attempt ms between tries', () => {
    expect([1, 2, 3].map(retryWait)).toEqual([2, 8, 24]);
  });

  it('retries a failed load 3 times by default, then reports the error', async () => {
    const inject = vi.fn(() => Promise.reject(new Error('blocked')));
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    await expect(loadMapsScript('KEY', { inject, sleep })).rejects.toThrow('blocked');
    expect(inject).toHaveBeenCalledTimes(4);
    expect(waits).toEqual([2, 8, 24]);
  });

  it('stops retrying as soon as a load succeeds', async () => {
    const inject = vi.fn().mockRejectedValueOnce(new Error('flaky')).mockResolvedValueOnce(undefined);
    await loadMapsScript('KEY', { inject, sleep: async () => {}, retries: 5 });
    expect(inject).toHaveBeenCalledTimes(2);
  });
});

describe('telling map errors apart', () => {
  it.each([
    ['Google Maps JavaScript API error: RefererNotAllowedMapError', 'denied'],
    ['Google Maps JavaScript API error: ApiNotActivatedMapError', 'denied'],
    ['Google Maps JavaScript API error: OverQuotaMapError', 'over-quota'],
    ['Google Maps JavaScript API error: InvalidKeyMapError', 'invalid-key'],
    ['Google Maps JavaScript API error: MissingKeyMapError', 'invalid-key'],
    ['script failed', 'load-failed'],
  ])('%s is %s', (text, kind) => {
    expect(classifyMapError(text)).toBe(kind);
  });
});

describe('the built-in map projection', () => {
  const view = { center: { lat: 40.75, lng: -73.98 }, zoom: 12, width: 600, height: 500 };

  it('puts the centre in the middle and maps back to the same place', () => {
    expect(toScreen(view.center, view)).toEqual({ x: 300, y: 250 });
    const point = { lat: 40.76, lng: -73.97 };
    const screen = toScreen(point, view);
    const back = fromScreen(screen.x, screen.y, view);
    expect(back.lat).toBeCloseTo(point.lat, 9);
    expect(back.lng).toBeCloseTo(point.lng, 9);
  });

  it('puts north up and east right', () => {
    const north = toScreen({ lat: 40.8, lng: -73.98 }, view);
    const east = toScreen({ lat: 40.75, lng: -73.9 }, view);
    expect(north.y).toBeLessThan(250);
    expect(east.x).toBeGreaterThan(300);
  });

  it('fits every point inside the box with padding', () => {
    const points = [
      { lat: 40.7, lng: -74.02 },
      { lat: 40.88, lng: -73.9 },
      { lat: 40.6, lng: -73.95 },
    ];
    const camera = fitBounds(points, { width: 600, height: 500 }, { center: view.center, zoom: 12 }, 40);
    for (const point of points) {
      const { x, y } = toScreen(point, { ...camera, width: 600, height: 500 });
      expect(x).toBeGreaterThanOrEqual(39.9);
      expect(x).toBeLessThanOrEqual(560.1);
      expect(y).toBeGreaterThanOrEqual(39.9);
      expect(y).toBeLessThanOrEqual(460.1);
    }
  });

  it('uses the default view without points and a close zoom for one', () => {
    const fallback = { center: view.center, zoom: 12 };
    expect(fitBounds([], { width: 600, height: 500 }, fallback)).toBe(fallback);
    expect(fitBounds([{ lat: 40.7, lng: -74 }], { width: 600, height: 500 }, fallback).zoom).toBe(15);
  });

  it('fans out markers that share a spot so each can be clicked', () => {
    const at = (key: string) => ({
      location: {
        key,
        type: 'cat' as const,
        id: 1,
        name: key,
        address: '',
        latitude: 0,
        longitude: 0,
        rating: 0,
      },
      x: 100,
      y: 100,
    });
    const spread = spreadOverlapping([at('a'), at('b'), at('c')]);
    const spots = new Set(spread.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`));
    expect(spots.size).toBe(3);
  });
});
