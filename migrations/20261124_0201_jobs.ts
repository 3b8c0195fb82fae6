// Embedded mode's job queue, kept in the database: the dispatcher writes a batch's jobs in the same
// transaction that advances its checkpoint, so a job can never be dispatched and then lost to a
// restart. The in-process runner works through the rows and deletes each one when it is done; a
// job that failed for good stays (failed_at set) for operators to see.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table jobs (
      queue text not null,
      id text not null,
      data jsonb not null,
      attempts int not null default 0,
      retries int not null default 0,
      run_at timestamptz not null default now(),
      failed_at timestamptz,
      last_error text,
      created_at timestamptz not null default now(),
      primary key (queue, id)
    )`.execute(db);
  await sql`create index jobs_due on jobs (queue, run_at) where failed_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table jobs`.execute(db);
}
