// Nearby: each row's earth position (ll_to_earth(latitude, longitude)) has a GiST index that
// answers a bounding cube around the circle (for counting) and walks rows nearest first (KNN, for
// the page). The exact test compares straight-line (chord) distances, which order exactly like
// great-circle ones but cost one C call instead of several SQL ones. Rows without coordinates have
// no position and never match.
import { sql, type RawBuilder } from 'kysely';

/** earthdistance's sphere (earth() in metres). */
const EARTH_RADIUS_M = 6378168;

export type Circle = { lat: number; lng: number; radiusKm: number };

type Located = 'cats' | 'bodegas';

function origin(circle: Circle) {
  return sql`ll_to_earth(${circle.lat}::float8, ${circle.lng}::float8)`;
}

function chordOf(greatCircleMetres: number): number {
  return 2 * EARTH_RADIUS_M * Math.sin(greatCircleMetres / (2 * EARTH_RADIUS_M));
}

/** Straight-line distance in metres through the earth: the KNN order of the index. */
export function chordMetres(table: Located, circle: Circle): RawBuilder<number> {
  return sql<number>`(${sql.ref(`${table}.location`)} <-> ${origin(circle)})`;
}

/** The exact test alone (not indexable): for a walk that the index orders nearest first. */
export function withinDistance(table: Located, circle: Circle): RawBuilder<boolean> {
  return sql<boolean>`${chordMetres(table, circle)} <= ${chordOf(circle.radiusKm * 1000)}::float8`;
}

/** The indexed bounding cube, then the exact test: for counting or listing a whole circle. */
export function withinCircle(table: Located, circle: Circle): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(`${table}.location`)} <@ earth_box(${origin(circle)}, ${circle.radiusKm * 1000}::float8)
    and ${withinDistance(table, circle)})`;
}

/** Great-circle kilometres, two decimals, from a chord in metres. */
export function chordToKm(chord: number): number {
  const ratio = Math.min(1, Number(chord) / (2 * EARTH_RADIUS_M));
  const metres = 2 * EARTH_RADIUS_M * Math.asin(ratio);
  return Math.round(metres / 10) / 100;
}
