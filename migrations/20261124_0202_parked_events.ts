// Events a checkpointed consumer could not handle (a malformed payload, or one its handler keeps
// rejecting): parked here with the error, so the consumer goes on instead of halting forever, and
// operators see them (metric, doctor) to fix and re-drive.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table parked_events (
      consumer text not null,
      global_position bigint not null,
      type text not null,
      error text not null,
      parked_at timestamptz not null default now(),
      primary key (consumer, global_position)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table parked_events`.execute(db);
}
