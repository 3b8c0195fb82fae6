// Several cats of one bodega share its coordinates: fan them out in a small ring so each marker
// can be seen and clicked.
import type { MapLocation } from './types.ts';

export type Placed = { location: MapLocation; x: number; y: number };

const RING_RADIUS = 14;

export function spreadOverlapping(points: Placed[]): Placed[] {
  const groups = new Map<string, Placed[]>();
  for (const point of points) {
    const key = `${Math.round(point.x / 4)}:${Math.round(point.y / 4)}`;
    const group = groups.get(key);
    if (group) group.push(point);
    else groups.set(key, [point]);
  }
  const spread: Placed[] = [];
  for (const group of groups.values()) {
    if (group.length === 1) {
      spread.push(group[0]!);
      continue;
    }
    const radius = RING_RADIUS + Math.max(0, group.length - 6) * 2;
    group.forEach((point, i) => {
      const angle = (2 * Math.PI * i) / group.length - Math.PI / 2;
      spread.push({ ...point, x: point.x + radius * Math.cos(angle), y: point.y + radius * Math.sin(angle) });
    });
  }
  return spread;
}
