// Two changes to the map's cells (see migration 20261202_0101 for map_apply itself):
//
// - A rebuild fills them once from the places. Replay applies each batch of the log to the places
//   only (map_apply(events, with_cells => false)) and ends with map_cells_from_places(): the cells
//   are a sum over the places, so adding each batch's shares to them (the coarse cells again in
//   every batch) was wasted work, 9.8 s of the database's time in a replay of 1,000,000 events.
// - Adding to a cell is a heap-only update: the partial index on empty cells is gone (a cell's
//   count was in an index predicate, so every update wrote a new entry in the primary key too),
//   map_apply deletes the cells it emptied by their keys, and new pages leave room for updates.
import { sql, type Kysely } from 'kysely';
import * as previous from './20261202_0101_map_at_commit.ts';

/** Levels and cell sizes of the stored grid (contract/map-grid.ts), as map_apply computes them. */
const LEVELS = sql`(select level, 90::float8 / (1::bigint << level) as size from generate_series(10, 16) as level)`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index map_cells_empty`.execute(db);
  await sql`alter table map_cells set (fillfactor = 80)`.execute(db);
  await sql`drop function map_apply(jsonb)`.execute(db);
  // The map events' effect on the places, and, unless with_cells is false, on the cells.
  await sql`
    create function map_apply(events jsonb, with_cells boolean default true) returns void language plpgsql as $$
    declare
      place_ids bigint[];
      emptied_kinds text[];
      emptied_levels smallint[];
      emptied_cx int[];
      emptied_cy int[];
    begin
${sql.raw(previous.PLACE_SHARES)},
      cells as (
        insert into map_cells as m (kind, level, cx, cy, n, lat_sum, lng_sum, id_sum)
        select s.kind, l.level, floor(s.longitude / l.size)::int, floor(s.latitude / l.size)::int,
          sum(s.n), sum(s.n * round(s.latitude * 1e7)::bigint), sum(s.n * round(s.longitude * 1e7)::bigint),
          sum(s.id_sum)
        from located s
        cross join ${LEVELS} l
        where with_cells
        group by 1, 2, 3, 4
        having sum(s.n) <> 0 or sum(s.id_sum) <> 0
          or sum(s.n * round(s.latitude * 1e7)::bigint) <> 0 or sum(s.n * round(s.longitude * 1e7)::bigint) <> 0
        order by 1, 2, 3, 4
        on conflict (kind, level, cx, cy) do update set
          n = m.n + excluded.n, lat_sum = m.lat_sum + excluded.lat_sum,
          lng_sum = m.lng_sum + excluded.lng_sum, id_sum = m.id_sum + excluded.id_sum
        returning m.kind, m.level, m.cx, m.cy, m.n
      )
      select array_agg(kind), array_agg(level), array_agg(cx), array_agg(cy)
      into emptied_kinds, emptied_levels, emptied_cx, emptied_cy
      from cells
      where n = 0;
      -- Only the cells this call emptied: the rest are untouched, and a cell's count is in no index,
      -- so adding to a cell is a heap-only update.
      if emptied_kinds is not null then
        delete from map_cells
        where (kind, level, cx, cy) in (select * from unnest(emptied_kinds, emptied_levels, emptied_cx, emptied_cy))
          and n = 0;
      end if;
    end $$`.execute(db);

  // Every cell from the places, into an empty table: the sum map_apply keeps, computed at once.
  await sql`
    create function map_cells_from_places() returns void language plpgsql as $$
    begin
      insert into map_cells (kind, level, cx, cy, n, lat_sum, lng_sum, id_sum)
      select s.kind, l.level, floor(s.longitude / l.size)::int, floor(s.latitude / l.size)::int,
        sum(s.n), sum(s.n * round(s.latitude * 1e7)::bigint), sum(s.n * round(s.longitude * 1e7)::bigint),
        sum(s.id_sum)
      from (
        select 'bodega' as kind, latitude, longitude, 1 as n, id as id_sum
        from map_places
        where latitude is not null and longitude is not null and not hidden
        union all
        select 'cat', latitude, longitude, cats, cat_id_sum
        from map_places
        where latitude is not null and longitude is not null and not hidden and cats <> 0
      ) s
      cross join ${LEVELS} l
      group by 1, 2, 3, 4
      order by 1, 2, 3, 4;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function map_cells_from_places(), map_apply(jsonb, boolean)`.execute(db);
  await sql`alter table map_cells reset (fillfactor)`.execute(db);
  await sql`create index map_cells_empty on map_cells (kind) where n = 0`.execute(db);
  // map_apply as migration 20261202_0101 made it: its down drops a map_apply(jsonb) and its up
  // makes the function and its trigger again.
  await sql`create function map_apply(events jsonb) returns void language plpgsql as $$ begin end $$`.execute(
    db,
  );
  await previous.down(db);
  await previous.up(db);
}
