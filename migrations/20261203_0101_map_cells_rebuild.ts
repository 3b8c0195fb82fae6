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
      -- The places these events touch, locked in key order before their state is read, so that
      -- the statement below sees their latest committed state and concurrent appends cannot
      -- deadlock on them.
      select coalesce(array_agg(distinct id order by id), '{}') into place_ids
      from (
        select case
          when e->>'t' in ('ContentHidden', 'ContentRestored') then
            case e->'d'->>'target_type'
              when 'bodega' then (e->'d'->>'target_id')::bigint
              when 'cat' then (e->'d'->>'parent_id')::bigint
            end
          else (e->'d'->>'bodega_id')::bigint
        end as id
        from jsonb_array_elements(events) as e
      ) touched
      where id is not null;
      perform 1 from map_places where id = any(place_ids) order by id for update;

      with ev as (
        select x.pos, x.e->>'t' as type, x.e->'d' as d
        from jsonb_array_elements(events) with ordinality as x(e, pos)
      ),
      cat_events as (
        select pos, type,
          coalesce(d->>'cat_id', d->>'target_id')::bigint as cat_id,
          coalesce(d->>'bodega_id', d->>'parent_id')::bigint as bodega_id
        from ev
        where type in ('CatAdded', 'CatDeleted')
          or (type in ('ContentHidden', 'ContentRestored') and d->>'target_type' = 'cat'
              and d->>'parent_id' is not null)
      ),
      cat_changes as (
        select c.cat_id, c.bodega_id,
          -- Counted before: it existed (its adding is not among these events) and was not hidden.
          not c.added and h.id is null as counted_before,
          not c.deleted and not coalesce(c.last_visibility = 'ContentHidden', h.id is not null) as counted_after,
          not c.deleted and coalesce(c.last_visibility = 'ContentHidden', h.id is not null) as hidden_after
        from (
          select cat_id, max(bodega_id) as bodega_id,
            bool_or(type = 'CatAdded') as added,
            bool_or(type = 'CatDeleted') as deleted,
            (array_agg(type order by pos desc) filter (where type like 'Content%'))[1] as last_visibility
          from cat_events
          group by cat_id
        ) c
        left join map_hidden_cats h on h.id = c.cat_id
      ),
      counted as (
        select bodega_id,
          sum(counted_after::int - counted_before::int) as n,
          sum((counted_after::int - counted_before::int) * cat_id) as id_sum
        from cat_changes
        group by bodega_id
      ),
      place_changes as (
        select id,
          bool_or(type = 'BodegaAdded') as added,
          bool_or(type = 'BodegaDeleted') as deleted,
          (array_agg(d order by pos desc) filter (where type in ('BodegaAdded', 'BodegaUpdated')))[1] as located,
          (array_agg(type order by pos desc) filter (where type like 'Content%'))[1] as last_visibility
        from (
          select pos, type, d, coalesce(d->>'bodega_id', d->>'target_id')::bigint as id
          from ev
          where type in ('BodegaAdded', 'BodegaUpdated', 'BodegaDeleted')
            or (type in ('ContentHidden', 'ContentRestored') and d->>'target_type' = 'bodega')
        ) p
        group by id
      ),
      before as (
        select id, latitude, longitude, cats, cat_id_sum, hidden
        from map_places where id = any(place_ids)
      ),
      after as (
        select t.id,
          case when pc.located is null then b.latitude else (pc.located->>'latitude')::float8 end as latitude,
          case when pc.located is null then b.longitude else (pc.located->>'longitude')::float8 end as longitude,
          coalesce(b.cats, 0) + coalesce(c.n, 0)::int as cats,
          coalesce(b.cat_id_sum, 0) + coalesce(c.id_sum, 0)::bigint as cat_id_sum,
          coalesce(pc.last_visibility = 'ContentHidden', b.hidden, false) as hidden
        from unnest(place_ids) as t(id)
        left join before b on b.id = t.id
        left join place_changes pc on pc.id = t.id
        left join counted c on c.bodega_id = t.id
        where (b.id is not null or coalesce(pc.added, false)) and not coalesce(pc.deleted, false)
      ),
      gone as (
        delete from map_places
        where id = any(place_ids) and id not in (select id from after)
      ),
      kept as (
        insert into map_places as m (id, latitude, longitude, cats, cat_id_sum, hidden)
        select id, latitude, longitude, cats, cat_id_sum, hidden from after
        on conflict (id) do update set
          latitude = excluded.latitude, longitude = excluded.longitude, cats = excluded.cats,
          cat_id_sum = excluded.cat_id_sum, hidden = excluded.hidden
      ),
      unhidden as (
        delete from map_hidden_cats h
        using cat_changes c
        where h.id = c.cat_id and not c.hidden_after
      ),
      hidden as (
        insert into map_hidden_cats (id, bodega_id)
        select cat_id, bodega_id from cat_changes where hidden_after
        on conflict (id) do nothing
      ),
      shares as (
        select -1 as sign, * from before
        union all
        select 1, * from after
      ),
      located as (
        select 'bodega' as kind, latitude, longitude, sign as n, sign * id as id_sum
        from shares
        where latitude is not null and longitude is not null and not hidden
        union all
        select 'cat', latitude, longitude, sign * cats, sign * cat_id_sum
        from shares
        where latitude is not null and longitude is not null and not hidden and cats <> 0
      ),
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
