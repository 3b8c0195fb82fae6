// Per-user upload quotas (UPLOADS_PER_MINUTE, UPLOADS_PER_DAY) count accepted uploads here, in the
// database, so every api process agrees. Rows older than a day are pruned as uploads come in.
// Operational state like login_failures: no event writes it and a replay leaves it alone.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table photo_upload_log (
      user_id bigint not null,
      uploaded_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index photo_upload_log_user on photo_upload_log (user_id, uploaded_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table photo_upload_log`.execute(db);
}
