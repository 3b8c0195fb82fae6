// A version per user, carried in every token it is issued (claim `tv`) and checked on each signed-in
// request: raising it signs the account out everywhere (a password change, "log out everywhere").
// users is not a projection (credentials never enter the log), so a replay leaves this alone.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column token_version integer not null default 0`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table users drop column token_version`.execute(db);
}
