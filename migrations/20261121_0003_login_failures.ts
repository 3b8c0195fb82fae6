// Failed sign-in counters for brute-force protection. Kept in the database (not in a process's
// memory) so every api instance enforces the same limits. Keys are hashes, never typed names.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table login_failures (
      scope text not null check (scope in ('account', 'ip')),
      key text not null,
      failures int not null,
      last_failed_at timestamptz not null,
      primary key (scope, key)
    )`.execute(db);
  await sql`create index login_failures_window on login_failures (last_failed_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table login_failures`.execute(db);
}
