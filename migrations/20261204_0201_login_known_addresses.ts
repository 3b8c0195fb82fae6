// Sign-in limits per sign-in name across every address, and the addresses each name has signed in
// from (which that limit lets through). Operational state like login_failures: no event writes it
// and a replay leaves it alone. Keys are hashes, never typed names or addresses.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table login_failures drop constraint login_failures_scope_check`.execute(db);
  await sql`alter table login_failures add constraint login_failures_scope_check check (scope in ('pair', 'ip', 'name'))`.execute(
    db,
  );
  await sql`
    create table login_known_addresses (
      name_key text not null,
      address_key text not null,
      last_signed_in_at timestamptz not null,
      primary key (name_key, address_key)
    )`.execute(db);
  await sql`create index login_known_addresses_age on login_known_addresses (last_signed_in_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table login_known_addresses`.execute(db);
  await sql`delete from login_failures where scope = 'name'`.execute(db);
  await sql`alter table login_failures drop constraint login_failures_scope_check`.execute(db);
  await sql`alter table login_failures add constraint login_failures_scope_check check (scope in ('pair', 'ip'))`.execute(
    db,
  );
}
