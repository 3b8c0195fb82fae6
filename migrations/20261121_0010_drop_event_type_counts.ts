// The per-type event counter only proved replay before the catalogue existed. As an inline
// projection it made every append update one shared row, serializing concurrent writers.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists event_type_counts`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create table event_type_counts (type text primary key, count bigint not null)`.execute(db);
}
