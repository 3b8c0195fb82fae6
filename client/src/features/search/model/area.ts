// A box of the map as the search keeps it: clamped to the world, and written in the URL as the
// "search this area" box (`area=w,s,e,n`).
import type { Box } from '../../../../../contract/map-grid.ts';

export type { Box };

/** Degrees kept in a box written to the URL: about a metre, enough for a map view. */
const AREA_DECIMALS = 5;

/** A box clamped to the world, or null when it is not a real box (see /api/map's checks). */
export function clampBox(box: Box): Box | null {
  const clamped = {
    west: Math.max(-180, box.west),
    south: Math.max(-90, box.south),
    east: Math.min(180, box.east),
    north: Math.min(90, box.north),
  };
  const finite = Object.values(clamped).every(Number.isFinite);
  return finite && clamped.west < clamped.east && clamped.south < clamped.north ? clamped : null;
}

/** `area=w,s,e,n` in the URL; anything else (missing, malformed, inverted, out of range) is none. */
export function parseArea(raw: string | null): Box | null {
  if (!raw) return null;
  const parts = raw.split(',');
  if (parts.length !== 4 || parts.some((p) => p.trim() === '')) return null;
  const [west, south, east, north] = parts.map(Number) as [number, number, number, number];
  const box = { west, south, east, north };
  const clamped = clampBox(box);
  return clamped &&
    clamped.west === west &&
    clamped.south === south &&
    clamped.east === east &&
    clamped.north === north
    ? box
    : null;
}

export function formatArea(box: Box): string {
  const round = (value: number) => Number(value.toFixed(AREA_DECIMALS));
  return [box.west, box.south, box.east, box.north].map(round).join(',');
}
