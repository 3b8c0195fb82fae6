// Clusters for a box: whole grid cells inside it come from the map cells projection; the box's
// edges, and every request with filters or text (which the cells cannot answer), are summed from
// the cats or bodegas read table over the box with the point index (or, for a breed or personality
// over a large box, that label's index), grouped by the same cells.
// From zoom EXACT_ZOOM each distinct location is a cluster while they are at most MAX_CLUSTERS.
import type { Cluster, MapAnswer } from '../../contract/map.ts';
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import { visible } from '../catalogue/index.ts';
import { boxOf, column, inBox, inRanges, pointOf, type Located } from '../geo/box.ts';
import {
  EXACT_ZOOM,
  MAX_CLUSTERS,
  STORED_MAX,
  STORED_MIN,
  answerLevel,
  cellSize,
  interiorOf,
  type Box,
  type Interior,
} from '../../contract/map-grid.ts';

export type MapSearch = {
  type: Located;
  box: Box;
  zoom: number;
  /** The search's filters and text, as SQL on the type's table; none lets the cells answer. */
  conditions: Expression<SqlBool>[];
  /** A breed or personality among them: that label's index carries place and id (see tableCells). */
  labelled: boolean;
};

/**
 * Up to this answer level (boxes of a borough or more), a labelled search reads its matching rows
 * from the label's index alone rather than every row in the box through the point index.
 */
const LABEL_INDEX_MAX_LEVEL = 13;

/** Items of one cluster: their mean coordinates and id sum (the id itself when alone, with its name). */
type Group = { n: number; lat: number; lng: number; idSum: number; name: string | null };
/** A cell's part of an answer; coordinates summed in 1e-7 degrees. */
type GroupRow = { gx: number; gy: number; n: number; lat: number; lng: number; id_sum: number };

export async function mapClusters(db: Kysely<DB>, search: MapSearch): Promise<MapAnswer> {
  const exact = search.zoom >= EXACT_ZOOM ? await locations(db, search) : null;
  const groups = exact ?? (await gridGroups(db, search));
  const clusters = groups.map((g): Cluster => {
    const cluster = { lat: g.lat, lng: g.lng, count: g.n };
    return g.n === 1 ? { ...cluster, id: g.idSum, name: g.name ?? '' } : cluster;
  });
  clusters.sort((a, b) => b.count - a.count || a.lat - b.lat || a.lng - b.lng);
  return { zoom: search.zoom, total: groups.reduce((sum, g) => sum + g.n, 0), clusters };
}

/** Every distinct location in the box, or null when there are more than MAX_CLUSTERS. */
async function locations(db: Kysely<DB>, search: MapSearch): Promise<Group[] | null> {
  const { type } = search;
  const lat = column(type, 'latitude');
  const lng = column(type, 'longitude');
  const { rows } = await sql<{ lat: number; lng: number; n: number; id_sum: number; name: string | null }>`
    select ${lat} as lat, ${lng} as lng, count(*)::int as n, sum(${column(type, 'id')}) as id_sum,
      case when count(*) = 1 then min(${column(type, 'name')}) end as name
    from ${sql.table(type)}
    where ${sql.join([inBox(type, search.box), visible(type), ...search.conditions], sql` and `)}
    group by 1, 2
    limit ${MAX_CLUSTERS + 1}`.execute(db);
  if (rows.length > MAX_CLUSTERS) return null;
  return rows.map((r) => ({ n: Number(r.n), lat: r.lat, lng: r.lng, idSum: Number(r.id_sum), name: r.name }));
}

/**
 * The level whose whole cells fill the box's interior: two levels finer than the answer's, so the
 * strips around it that are counted from the table are a quarter as wide. Four times as many
 * stored cells cost far less than the rows of the wider strips (means over 30 boxes of 100,000
 * cats, cells and strips: Brooklyn at zoom 13 0.4 + 7.6 ms, now 2.1 + 1.2; the city at zoom 10
 * 0.1 + 3.0 ms, now 0.3 + 0.4). The finer cells add up into the answer's (storedCells).
 */
function interiorLevel(level: number): number {
  return Math.min(STORED_MAX, Math.max(level + 2, STORED_MIN));
}

async function gridGroups(db: Kysely<DB>, search: MapSearch): Promise<Group[]> {
  const level = answerLevel(search.box, search.zoom);
  const interior = search.conditions.length === 0 ? interiorOf(search.box, interiorLevel(level)) : null;
  const parts = [
    ...(interior ? [storedCells(search.type, level, interior)] : []),
    tableCells(search, level, interior),
  ];
  // One statement: the stored cells and the strips are added up per answer cell by the database.
  // Coordinates are summed as whole 1e-7 degrees, as the cells keep them, so that a mean does not
  // depend on the order rows are read in; divided once every part of a cell is in.
  // A cluster of one item is named in the same statement (its id is the cell's id sum).
  const { rows } = await sql<GroupRow & { name: string | null }>`
    select gx, gy, sum(n) as n, sum(lat) as lat, sum(lng) as lng, sum(id_sum) as id_sum,
      case when sum(n) = 1
        then (select t.name from ${sql.table(search.type)} t where t.id = sum(parts.id_sum)::bigint)
      end as name
    from (${sql.join(
      parts.map((part) => sql`(${part})`),
      sql` union all `,
    )}) parts
    group by gx, gy
    having sum(n) > 0`.execute(db);
  return rows.map((row) => {
    const n = Number(row.n);
    return {
      n,
      lat: Number(row.lat) / n / 1e7,
      lng: Number(row.lng) / n / 1e7,
      idSum: Number(row.id_sum),
      name: row.name,
    };
  });
}

/** The projection's cells inside the box, summed into the answer level's cells. */
function storedCells(type: MapSearch['type'], level: number, interior: Interior): RawBuilder<GroupRow> {
  const per = 2 ** (interior.level - level);
  return sql<GroupRow>`
    select floor(cx::float8 / ${per})::int as gx, floor(cy::float8 / ${per})::int as gy,
      sum(n)::bigint as n, sum(lat_sum)::numeric as lat, sum(lng_sum)::numeric as lng,
      sum(id_sum)::numeric as id_sum
    from map_cells
    where kind = ${type === 'cats' ? 'cat' : 'bodega'} and level = ${interior.level}
      and cx between ${interior.cx[0]} and ${interior.cx[1]}
      and cy between ${interior.cy[0]} and ${interior.cy[1]}
    group by 1, 2`;
}

/**
 * Matching rows in the box but outside the interior (all of the box when there is none), summed
 * into the answer level's cells. The edge strips are four boxes the index answers one by one.
 */
function tableCells(search: MapSearch, level: number, interior: Interior | null): RawBuilder<GroupRow> {
  const { type, box } = search;
  const lat = column(type, 'latitude');
  const lng = column(type, 'longitude');
  const size = cellSize(level);
  // A label over a large box: the planner takes the point index's selectivity for 0.1% of the
  // table, so offered it, it visits every row in the box (about 50 ms for the city at 100,000
  // cats); without it, it reads the label's index alone (about 7 ms for 12,500 friendly tabbies).
  const byLabel = search.labelled && level <= LABEL_INDEX_MAX_LEVEL;
  // Hidden items are out of the cells too (see map/projection.ts), so the parts add up.
  const where = [byLabel ? inRanges(type, box) : inBox(type, box), visible(type), ...search.conditions];
  if (interior) where.push(...outside(type, box, interior));
  return sql<GroupRow>`
    select floor(${lng} / ${size}::float8)::int as gx, floor(${lat} / ${size}::float8)::int as gy,
      count(*)::bigint as n, sum(round(${lat} * 1e7)::bigint)::numeric as lat,
      sum(round(${lng} * 1e7)::bigint)::numeric as lng, sum(${column(type, 'id')})::numeric as id_sum
    from ${sql.table(type)}
    where ${sql.join(where, sql` and `)}
    group by 1, 2`;
}

/**
 * Not in a cell of the interior, computed as the projection computes cells; and, for the index,
 * in one of the strips around the interior (the point operators' tolerance covers rounding).
 */
function outside(type: MapSearch['type'], box: Box, interior: Interior): RawBuilder<boolean>[] {
  const size = cellSize(interior.level);
  const [x0, x1] = [interior.cx[0] * size, (interior.cx[1] + 1) * size];
  const [y0, y1] = [interior.cy[0] * size, (interior.cy[1] + 1) * size];
  const lng = column(type, 'longitude');
  const lat = column(type, 'latitude');
  const strips: Box[] = [
    { ...box, east: x0 },
    { ...box, west: x1 },
    { west: x0, east: x1, south: box.south, north: y0 },
    { west: x0, east: x1, south: y1, north: box.north },
  ];
  return [
    sql<boolean>`not (floor(${lng} / ${size}::float8) between ${interior.cx[0]} and ${interior.cx[1]}
      and floor(${lat} / ${size}::float8) between ${interior.cy[0]} and ${interior.cy[1]})`,
    sql<boolean>`(${sql.join(
      strips.map((s) => sql`${pointOf(type)} <@ ${boxOf(s)}`),
      sql` or `,
    )})`,
  ];
}
