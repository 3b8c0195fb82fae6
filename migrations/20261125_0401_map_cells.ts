// The map's read model: per-zoom grid cells of located cats and bodegas (count, coordinate sums
// in 1e-7 degrees, id sum: the id itself when the count is 1) and each bodega's place with the
// cats it holds, so that a move or a deletion can take its cats' share out of the old cells.
// The point index on cats and bodegas answers boxes for the edges of a map answer and filtered
// or text queries, which the grid cannot.
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
  for (const table of TABLES) {
    await sql`
      create index ${sql.raw(`${table}_point`)} on ${sql.table(table)}
      using gist (point(longitude, latitude))`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) await sql`drop index ${sql.raw(`${table}_point`)}`.execute(db);
  await sql`drop table map_cells, map_places`.execute(db);
}
