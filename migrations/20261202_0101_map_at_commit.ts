// The map's cells are kept by the database at commit, from the transaction's own events, instead of
// by a statement the app sends after each event and a queue folded at commit: a shop with five
// cats cost six more round trips and twelve queue rows (inserted, then deleted at commit) where it
// now costs none, and without vacuum the queue's dead rows made every commit's fold slower as the
// city grew (0.45 of the append rate without the map at 100,000 cats, 0.84 after a vacuum).
//
// map_apply(events) is the projection, set-based and used both ways: a commit-time trigger on
// `events` hands it the transaction's map events, and replay hands it each batch of the log (on its
// shadow tables, through the search path). It works from places, not from each event: the cells
// hold, for every located and visible place, the bodega and the cats counted there, so it takes
// the touched places' share out at their old state and puts it back at their new one. A place's
// new state is the last coordinates and visibility its events give, with the cats whose counting
// changed: a cat counts while it exists and is not hidden by itself (map_hidden_cats). Cells are
// written in one statement in key order; shares that cancel out (a bodega whose place did not
// change) touch no cell, so adding a cat locks only the cat cells of its place.
import { sql, type Kysely } from 'kysely';

/** The event types map_apply reads (server/map/projection.ts lists the same). */
export const MAP_EVENT_TYPES = [
  'BodegaAdded',
  'BodegaUpdated',
  'BodegaDeleted',
  'CatAdded',
  'CatDeleted',
  'ContentHidden',
  'ContentRestored',
];

const eventTypes = sql.join(MAP_EVENT_TYPES.map((type) => sql.lit(type)));

/**
 * map_apply's first part, shared with its next version (migration 20261203_0101): the touched
 * places locked, the places and hidden cats brought to their new state, and `located`, each
 * place's share of the cells taken out at its old state and put back at its new one.
 */
export const PLACE_SHARES = `      -- The places these events touch, locked in key order before their state is read, so that
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
      )`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger map_cells_at_commit on map_commit_marker`.execute(db);
  await sql`drop function map_cells_at_commit(), map_flush_pending()`.execute(db);
  await sql`drop table map_commit_marker, map_pending`.execute(db);
  await sql`
    create function map_apply(events jsonb) returns void language plpgsql as $$
    declare
      place_ids bigint[];
    begin
${sql.raw(PLACE_SHARES)}
      insert into map_cells as m (kind, level, cx, cy, n, lat_sum, lng_sum, id_sum)
      select s.kind, l.level, floor(s.longitude / l.size)::int, floor(s.latitude / l.size)::int,
        sum(s.n), sum(s.n * round(s.latitude * 1e7)::bigint), sum(s.n * round(s.longitude * 1e7)::bigint),
        sum(s.id_sum)
      from located s
      cross join (
        select level, 90::float8 / (1::bigint << level) as size from generate_series(10, 16) as level
      ) l
      group by 1, 2, 3, 4
      having sum(s.n) <> 0 or sum(s.id_sum) <> 0
        or sum(s.n * round(s.latitude * 1e7)::bigint) <> 0 or sum(s.n * round(s.longitude * 1e7)::bigint) <> 0
      order by 1, 2, 3, 4
      on conflict (kind, level, cx, cy) do update set
        n = m.n + excluded.n, lat_sum = m.lat_sum + excluded.lat_sum,
        lng_sum = m.lng_sum + excluded.lng_sum, id_sum = m.id_sum + excluded.id_sum;
      delete from map_cells where n = 0;
    end $$`.execute(db);
  // At commit, once per transaction that appended a map event: the first of its deferred firings
  // applies all of them, the others find the transaction marked done.
  await sql`
    create function map_at_commit() returns trigger language plpgsql set search_path = public as $$
    declare
      xact text := pg_current_xact_id()::text;
    begin
      if current_setting('bodega.map_applied', true) = xact then
        return null;
      end if;
      perform set_config('bodega.map_applied', xact, true);
      perform map_apply((
        select jsonb_agg(jsonb_build_object('t', type, 'd', data) order by global_position)
        from events
        where transaction_id = pg_current_xact_id() and type in (${eventTypes})
      ));
      return null;
    end $$`.execute(db);
  await sql`
    create constraint trigger map_at_commit after insert on events
    deferrable initially deferred for each row
    when (new.type in (${eventTypes}))
    execute function map_at_commit()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger map_at_commit on events`.execute(db);
  await sql`drop function map_at_commit(), map_apply(jsonb)`.execute(db);
  await sql`
    create unlogged table map_pending (
      kind text not null,
      latitude double precision not null,
      longitude double precision not null,
      n int not null,
      id_sum bigint not null
    )`.execute(db);
  await sql`create unlogged table map_commit_marker (at_commit boolean not null default true)`.execute(db);
  await sql`
    create function map_flush_pending() returns void language plpgsql as $$
    begin
      with taken as (delete from map_pending returning *)
      insert into map_cells as m (kind, level, cx, cy, n, lat_sum, lng_sum, id_sum)
      select t.kind, l.level, floor(t.longitude / l.size)::int, floor(t.latitude / l.size)::int,
        sum(t.n), sum(t.n * round(t.latitude * 1e7)::bigint), sum(t.n * round(t.longitude * 1e7)::bigint),
        sum(t.id_sum)
      from taken t
      cross join (
        select level, 90::float8 / (1::bigint << level) as size from generate_series(10, 16) as level
      ) l
      group by 1, 2, 3, 4
      order by 1, 2, 3, 4
      on conflict (kind, level, cx, cy) do update set
        n = m.n + excluded.n, lat_sum = m.lat_sum + excluded.lat_sum,
        lng_sum = m.lng_sum + excluded.lng_sum, id_sum = m.id_sum + excluded.id_sum;
      delete from map_cells where n = 0;
    end $$`.execute(db);
  await sql`
    create function map_cells_at_commit() returns trigger language plpgsql as $$
    begin
      delete from map_commit_marker;
      perform map_flush_pending();
      return null;
    end $$`.execute(db);
  await sql`
    create constraint trigger map_cells_at_commit after insert on map_commit_marker
    deferrable initially deferred for each row execute function map_cells_at_commit()`.execute(db);
}
