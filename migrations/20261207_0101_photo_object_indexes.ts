// Indexes for the orphan sweep (server/photos/reconcile.ts): it asks, for each batch of objects in
// the photo storage, which photos name them as their original or as their variants' file name, so
// each pass is a lookup per key instead of a scan of every photo.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index photos_filename on photos (filename)`.execute(db);
  await sql`create index photos_original_path on photos (original_path)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index photos_original_path`.execute(db);
  await sql`drop index photos_filename`.execute(db);
}
