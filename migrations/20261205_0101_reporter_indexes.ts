// Indexes for what a report reads of its reporter (server/moderation/reporters.ts): their reports of
// the last day (REPORTS_PER_DAY), and whether they have a review or photo to their name (a
// reporter's standing; cats and bodegas have their created_by indexes already). Account deletion
// finds a person's reviews and photos through the same two.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index reports_user_newest on reports (user_id, created_at)`.execute(db);
  await sql`create index reviews_user on reviews (user_id)`.execute(db);
  await sql`create index photos_uploaded_by on photos (uploaded_by)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index photos_uploaded_by`.execute(db);
  await sql`drop index reviews_user`.execute(db);
  await sql`drop index reports_user_newest`.execute(db);
}
