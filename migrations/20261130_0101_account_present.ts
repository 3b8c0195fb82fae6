// account_present(id): whether the account exists, read in a snapshot of its own. Volatile
// PL/pgSQL takes a fresh snapshot for each query it runs, so called after the account's lock in the
// same select list (see holdAccount in server/http/idempotency.ts), it sees a deletion that the
// lock waited for: the lock and the check cost one round trip instead of two. Its own search_path,
// so it finds the users table from replay's shadow-only search path too.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function account_present(account bigint) returns boolean
    language plpgsql volatile
    set search_path = public, pg_catalog
    as $$ begin return exists (select 1 from users where id = account); end $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function account_present(bigint)`.execute(db);
}
