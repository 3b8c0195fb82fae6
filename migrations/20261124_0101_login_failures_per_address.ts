// Sign-in failures are counted per (account, client address) instead of per account, so no one
// can lock an account's owner out by failing on purpose. Old per-account counters are dropped.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from login_failures where scope = 'account'`.execute(db);
  await sql`alter table login_failures drop constraint login_failures_scope_check`.execute(db);
  await sql`alter table login_failures add constraint login_failures_scope_check check (scope in ('pair', 'ip'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from login_failures where scope = 'pair'`.execute(db);
  await sql`alter table login_failures drop constraint login_failures_scope_check`.execute(db);
  await sql`alter table login_failures add constraint login_failures_scope_check check (scope in ('account', 'ip'))`.execute(
    db,
  );
}
