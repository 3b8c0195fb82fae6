// The log's incarnation: a random id in a one-row table. `npm run log -- rebase` gives the log a
// new one after a restore, and job ids carry it, so a queue that still remembers job ids from
// before the restore never mistakes a new job for a duplicate of an old one.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table log_incarnation (
      singleton boolean primary key default true check (singleton),
      id text not null,
      started_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    insert into log_incarnation (id)
    values (substr(replace(gen_random_uuid()::text, '-', ''), 1, 12))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table log_incarnation`.execute(db);
}
