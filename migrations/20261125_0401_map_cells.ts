// The map's read model: per-zoom grid cells of located cats and bodegas (count, coordinate sums
// in 1e-7 degrees, id sum: the id itself when the count is 1) and each bodega's place with the
// cats it holds, so that a move or a deletion can take its cats' share out of the old cells.
// The point index on cats and bodegas answers boxes for the edges of a map answer and filtered
// or text queries, which the grid cannot.
//
// Coarse cells are shared by many writers, so an append does not update them: it queues its
// changes in map_pending (with the coordinates as of its events), and map_flush_pending() folds
// them into the cells at commit (a deferred trigger on map_commit_marker), in one statement that
// locks cells in key order. Cell locks are then only ever taken last and in one order, so
// concurrent appends cannot deadlock on them. Replay calls map_flush_pending() itself on its
// shadow tables. Levels 10..16 are the stored levels of contract/map-grid.ts.
import { sql, type Kysely } from 'kysely';

const TABLES = ['cats', 'bodegas'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table map_places (
      id bigint primary key,
      latitude double precision,
      longitude double precision,
      cats int not null,
      cat_id_sum bigint not null
    )`.execute(db);
  await sql`
    create table map_cells (
      kind text not null,
      level smallint not null,
      cx int not null,
      cy int not null,
      n int not null,
      lat_sum bigint not null,
      lng_sum bigint not null,
      id_sum bigint not null,
      primary key (kind, level, cx, cy)
    )`.execute(db);
  await sql`create index map_cells_empty on map_cells (kind) where n = 0`.execute(db);
  await sql`
    create table map_pending (
      kind text not null,
      latitude double precision not null,
      longitude double precision not null,
      n int not null,
      id_sum bigint not null
    )`.execute(db);
  await sql`create table map_commit_marker (at_commit boolean not null default true)`.execute(db);
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
  for (const table of TABLES) {
    await sql`
      create index ${sql.raw(`${table}_point`)} on ${sql.table(table)}
      using gist (point(longitude, latitude))`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await sql`drop index ${sql.raw(`${table}_point`)}`.execute(db);
  await sql`drop table map_commit_marker, map_pending, map_cells, map_places`.execute(db);
  await sql`drop function map_cells_at_commit(), map_flush_pending()`.execute(db);
}
