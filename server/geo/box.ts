// A map view's box as SQL over the cats or bodegas table: the one geometry the map's clusters and
// the search's "this area" both ask, so an item is in a box for the one exactly when it is for the
// other.
import { sql, type RawBuilder } from 'kysely';
import type { Box } from '../../contract/map-grid.ts';

/** The tables with a place (their bodega's, for cats). */
export type Located = 'cats' | 'bodegas';

export function column(table: Located, name: string) {
  return sql.ref(`${table}.${name}`);
}

/** Rows inside the box, exactly (the point operators compare with a tolerance), by the index. */
export function inBox(table: Located, box: Box): RawBuilder<boolean> {
  return sql<boolean>`(${pointOf(table)} <@ ${boxOf(box)} and ${inRanges(table, box)})`;
}

/** Rows inside the box by their coordinates alone, which leaves the point index out of the plan. */
export function inRanges(table: Located, box: Box): RawBuilder<boolean> {
  const lng = column(table, 'longitude');
  const lat = column(table, 'latitude');
  return sql<boolean>`(${lng} between ${box.west}::float8 and ${box.east}::float8
    and ${lat} between ${box.south}::float8 and ${box.north}::float8)`;
}

export function pointOf(table: Located) {
  return sql`point(${column(table, 'longitude')}, ${column(table, 'latitude')})`;
}

export function boxOf(b: Box) {
  return sql`box(point(${b.west}::float8, ${b.south}::float8), point(${b.east}::float8, ${b.north}::float8))`;
}
