// The Google map's camera in the clusters' terms: the box and zoom to ask /api/map for, and where a
// point is drawn (for an open card). Read through the few calls below, so it is plain arithmetic.
import type { Camera } from '../../hooks/use-map-clusters.ts';
import { toScreen } from './projection.ts';

/**
 * Google's zoom levels count 256-pixel tiles, MapLibre's 512-pixel ones: the same view is one
 * level higher on Google. Clusters are asked for and zoomed into in MapLibre's levels, so both
 * maps group the same items at the same scale.
 */
export const GOOGLE_ZOOM_OFFSET = 1;

export function clusterZoomOf(googleZoom: number): number {
  return googleZoom - GOOGLE_ZOOM_OFFSET;
}

export function googleZoomOf(clusterZoom: number): number {
  return clusterZoom + GOOGLE_ZOOM_OFFSET;
}

/** What is read from a google.maps.Map here. */
export type GoogleCameraSource = {
  getBounds(): { toJSON(): { west: number; south: number; east: number; north: number } } | undefined;
  getCenter(): { lat(): number; lng(): number } | undefined;
  getZoom(): number | undefined;
  getDiv(): { clientWidth: number; clientHeight: number };
};

/** The clusters' camera for the map's bounds, or null before the map has a view. */
export function cameraOf(map: GoogleCameraSource): Camera | null {
  const bounds = map.getBounds()?.toJSON();
  const zoom = map.getZoom();
  if (!bounds || zoom === undefined) return null;
  const { west, south, east, north } = bounds;
  return { box: { west, south, east, north }, zoom: clusterZoomOf(zoom) };
}

/** Where a point is in the map's pixels (no tilt or heading on this map: plain Web Mercator). */
export function pixelOf(map: GoogleCameraSource, point: { lat: number; lng: number }) {
  const center = map.getCenter();
  const zoom = map.getZoom();
  if (!center || zoom === undefined) return null;
  const div = map.getDiv();
  return toScreen(point, {
    center: { lat: center.lat(), lng: center.lng() },
    zoom,
    width: div.clientWidth,
    height: div.clientHeight,
  });
}
