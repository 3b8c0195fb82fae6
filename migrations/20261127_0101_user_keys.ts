// Per-user data keys for crypto-shredding (server/events/personal.ts): personal fields of events are
// sealed under their owner's key, stored here wrapped by the master key DATA_KEY. Deleting an
// account deletes its key, after which those fields can never be read.
// Like users, this table is not a projection: a replay leaves it alone.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table user_keys (
      user_id bigint primary key,
      wrapped_key bytea not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table user_keys`.execute(db);
}
