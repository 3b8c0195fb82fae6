import { describe, expect, it } from 'vitest';
import type { MapLocation } from '../../../../client/src/features/search/components/map/types.ts';
import {
  cameraOf,
  clusterZoomOf,
  googleZoomOf,
  pixelOf,
  type GoogleCameraSource,
} from '../../../../client/src/features/search/components/map/google-camera.ts';
import {
  BUMP_MS,
  MAX_CLUSTER_ZOOM,
  clusterAction,
  clusterKey,
  clusterMarker,
  highlightOf,
} from '../../../../client/src/features/search/model/cluster-markers.ts';
import type { ClusterView } from '../../../../client/src/features/search/model/map-clusters.ts';

const BOX = { west: -74.1, south: 40.6, east: -73.8, north: 40.9 };
const pair = { lat: 40.7, lng: -73.95, count: 2 };
const many = { lat: 40.75, lng: -73.9, count: 12_345 };
const solo = { lat: 40.8, lng: -74, count: 1, id: 7, name: 'Mozzarella' };
const view: ClusterView = { box: BOX, answer: { zoom: 12, total: 12_348, clusters: [pair, many, solo] } };

function location(key: string, id: number): MapLocation {
  return {
    key,
    type: 'cat',
    id,
    name: `Cat ${id}`,
    address: '1 Main St',
    latitude: 40.71,
    longitude: -73.96,
    rating: 4,
  };
}

describe('cluster markers', () => {
  it('keys only single named items, as the list keys its results', () => {
    expect(clusterKey('cats', solo)).toBe('cat-7');
    expect(clusterKey('bodegas', solo)).toBe('bodega-7');
    expect(clusterKey('cats', pair)).toBeNull();
    expect(clusterKey('cats', { lat: 1, lng: 1, count: 1 })).toBeNull();
  });

  it('names, numbers and sizes a button by its count', () => {
    const now = 1_000_000;
    expect(clusterMarker(pair, 'cats', { view, now })).toEqual({
      key: null,
      label: '2 cats near here',
      className: 'cluster cluster--cat',
      text: '2',
      size: '28px',
    });
    expect(clusterMarker(many, 'bodegas', { view, now })).toMatchObject({
      label: '12345 bodegas near here',
      className: 'cluster cluster--bodega',
      text: '12345',
      size: '56px',
    });
    expect(clusterMarker(solo, 'cats', { view, now })).toEqual({
      key: 'cat-7',
      label: 'Mozzarella',
      className: 'cluster cluster--cat cluster--single',
      text: '',
      size: '18px',
    });
  });

  it('bumps the cluster a live change landed in, for a moment only', () => {
    const at = 5_000;
    const bump = { lat: pair.lat + 0.001, lng: pair.lng + 0.001, at };
    expect(clusterMarker(pair, 'cats', { view, bump, now: at + 10 }).className).toContain('cluster--bumped');
    expect(clusterMarker(pair, 'cats', { view, bump, now: at + BUMP_MS }).className).not.toContain(
      'cluster--bumped',
    );
    expect(clusterMarker(solo, 'cats', { view, bump, now: at + 10 }).className).not.toContain(
      'cluster--bumped',
    );
  });

  it('opens a single item, zooms into a group, and lists a spot that will not split', () => {
    expect(clusterAction(solo, 12, true)).toEqual({ kind: 'open' });
    expect(clusterAction(pair, 12, true)).toEqual({
      kind: 'zoom',
      center: { lat: pair.lat, lng: pair.lng },
      zoom: 14,
    });
    // A fractional zoom still gains two levels; the last step stops at the exact level.
    expect(clusterAction(pair, 12.4, true)).toMatchObject({ zoom: 14.4 });
    expect(clusterAction(pair, 16, true)).toMatchObject({ kind: 'zoom', zoom: MAX_CLUSTER_ZOOM });
    const spot = clusterAction(pair, MAX_CLUSTER_ZOOM, true);
    expect(spot.kind).toBe('spot');
    if (spot.kind !== 'spot') return;
    expect(spot.box.west).toBeLessThan(pair.lng);
    expect(spot.box.east).toBeGreaterThan(pair.lng);
    expect(spot.box.south).toBeLessThan(pair.lat);
    expect(spot.box.north).toBeGreaterThan(pair.lat);
    expect(spot.box.east - spot.box.west).toBeLessThan(0.001);
    // Without a list to limit, the deepest click stays a zoom (that goes nowhere further).
    expect(clusterAction(pair, MAX_CLUSTER_ZOOM, false)).toMatchObject({
      kind: 'zoom',
      zoom: MAX_CLUSTER_ZOOM,
    });
  });

  it('highlights a result by its own marker, or pins it when it sits inside a cluster', () => {
    const inCluster = location('cat-3', 3);
    const single = location('cat-7', 7);
    const locations = [inCluster, single];
    expect(highlightOf(view, 'cats', 'cat-7', locations)).toEqual({ marker: 'cat-7', pin: null });
    expect(highlightOf(view, 'cats', 'cat-3', locations)).toEqual({ marker: null, pin: inCluster });
    expect(highlightOf(null, 'cats', 'cat-7', locations)).toEqual({ marker: null, pin: single });
    expect(highlightOf(view, 'bodegas', 'cat-7', locations)).toEqual({ marker: null, pin: single });
    expect(highlightOf(view, 'cats', null, locations)).toEqual({ marker: null, pin: null });
    expect(highlightOf(view, 'cats', 'cat-99', locations)).toEqual({ marker: null, pin: null });
  });
});

describe("the Google map's camera", () => {
  /** A map at a centre and zoom, as Google reports it, with bounds from the same projection. */
  function mapAt(center: { lat: number; lng: number }, zoom: number | undefined, width = 512, height = 256) {
    const source: GoogleCameraSource = {
      getCenter: () => ({ lat: () => center.lat, lng: () => center.lng }),
      getZoom: () => zoom,
      getDiv: () => ({ clientWidth: width, clientHeight: height }),
      getBounds: () =>
        zoom === undefined ? undefined : { toJSON: () => ({ ...BOX, extra: 1 }) as typeof BOX },
    };
    return source;
  }

  it("asks for clusters one level below Google's zoom: the same scale as the street map's", () => {
    expect(clusterZoomOf(13)).toBe(12);
    expect(googleZoomOf(clusterZoomOf(15))).toBe(15);
    expect(googleZoomOf(MAX_CLUSTER_ZOOM)).toBe(18);
    expect(cameraOf(mapAt({ lat: 40.75, lng: -73.95 }, 13))).toEqual({ box: BOX, zoom: 12 });
    expect(cameraOf(mapAt({ lat: 40.75, lng: -73.95 }, undefined))).toBeNull();
  });

  it('places a point in the map by Web Mercator from its centre', () => {
    const center = { lat: 40.75, lng: -73.95 };
    const map = mapAt(center, 12);
    expect(pixelOf(map, center)).toEqual({ x: 256, y: 128 });
    // At zoom 12 the world is 256 x 2^12 pixels wide: a tenth of a degree east is about 291 px.
    const east = pixelOf(map, { lat: center.lat, lng: center.lng + 0.1 })!;
    expect(east.x - 256).toBeCloseTo((256 * 2 ** 12) / 3600, 6);
    expect(east.y).toBeCloseTo(128, 6);
    const north = pixelOf(map, { lat: center.lat + 0.01, lng: center.lng })!;
    expect(north.y).toBeLessThan(128);
    expect(pixelOf(mapAt(center, undefined), center)).toBeNull();
  });
});
