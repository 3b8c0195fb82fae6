// Web Mercator maths for the built-in map: fit points into a pixel box, and back.
import type { Coordinates } from '../../../../lib/coordinates.ts';

const TILE = 256;

/** World pixel coordinates at zoom 0 (0..256 on both axes). */
export function project({ lat, lng }: Coordinates): { x: number; y: number } {
  const clamped = Math.max(-85.05112878, Math.min(85.05112878, lat));
  const sin = Math.sin((clamped * Math.PI) / 180);
  return {
    x: TILE * (0.5 + lng / 360),
    y: TILE * (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)),
  };
}

export function unproject({ x, y }: { x: number; y: number }): Coordinates {
  const lng = (x / TILE - 0.5) * 360;
  const n = Math.PI - (2 * Math.PI * y) / TILE;
  const lat = (180 / Math.PI) * Math.atan(0.5 * (Math.exp(n) - Math.exp(-n)));
  return { lat, lng };
}

export type Viewport = { center: Coordinates; zoom: number; width: number; height: number };

/** Pixel position of a coordinate inside the viewport. */
export function toScreen(point: Coordinates, view: Viewport): { x: number; y: number } {
  const scale = 2 ** view.zoom;
  const p = project(point);
  const c = project(view.center);
  return { x: (p.x - c.x) * scale + view.width / 2, y: (p.y - c.y) * scale + view.height / 2 };
}

export function fromScreen(x: number, y: number, view: Viewport): Coordinates {
  const scale = 2 ** view.zoom;
  const c = project(view.center);
  return unproject({ x: c.x + (x - view.width / 2) / scale, y: c.y + (y - view.height / 2) / scale });
}

/** The centre and zoom that show every point with `padding` pixels to spare, at most `maxZoom`. */
export function fitBounds(
  points: Coordinates[],
  size: { width: number; height: number },
  fallback: { center: Coordinates; zoom: number },
  padding = 48,
  maxZoom = 15,
): { center: Coordinates; zoom: number } {
  if (points.length === 0) return fallback;
  const projected = points.map(project);
  const xs = projected.map((p) => p.x);
  const ys = projected.map((p) => p.y);
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const minY = Math.min(...ys);
  const maxY = Math.max(...ys);
  const center = unproject({ x: (minX + maxX) / 2, y: (minY + maxY) / 2 });
  const spanX = maxX - minX;
  const spanY = maxY - minY;
  const room = { w: Math.max(1, size.width - 2 * padding), h: Math.max(1, size.height - 2 * padding) };
  const zoomX = spanX > 0 ? Math.log2(room.w / spanX) : maxZoom;
  const zoomY = spanY > 0 ? Math.log2(room.h / spanY) : maxZoom;
  return { center, zoom: Math.max(2, Math.min(maxZoom, zoomX, zoomY)) };
}

/** Metres covered by one screen pixel at a latitude and zoom. */
export function metresPerPixel(lat: number, zoom: number): number {
  return (156543.03392 * Math.cos((lat * Math.PI) / 180)) / 2 ** zoom;
}
