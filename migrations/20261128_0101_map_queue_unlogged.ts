// The map's queue (map_pending) and commit marker hold rows only inside the transaction that
// writes them: the commit trigger folds and deletes them before the commit ends, so after a crash
// they are empty either way. Unlogged, they cost appends no WAL (each shop or cat added writes and
// deletes its queue rows); the cells they fold into stay logged.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table map_pending set unlogged`.execute(db);
  await sql`alter table map_commit_marker set unlogged`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table map_pending set logged`.execute(db);
  await sql`alter table map_commit_marker set logged`.execute(db);
}
