// Per-user upload quotas (UPLOADS_PER_MINUTE, UPLOADS_PER_DAY). Accepted uploads are counted in
// photo_upload_log, in the database, so every api process sees the same counts; the count that
// decides is taken inside the upload's transaction under a per-user lock (uploadQuotaLock), so
// parallel uploads cannot slip past it together. A deleted photo still counts: deleting does not
// give uploads back.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { RateLimited } from '../errors.ts';
import { uploadQuotaLock, type Lock } from '../events/locks.ts';

/** Uploads one user may make per minute and per day; 0 turns that limit off. */
export type UploadQuota = { perMinute: number; perDay: number };

const WINDOWS = [
  { limit: 'perMinute', seconds: 60, name: 'a minute' },
  { limit: 'perDay', seconds: 24 * 3600, name: 'a day' },
] as const;

/**
 * Seconds until the user may upload again under each full window: the moment the limit-th most
 * recent upload leaves the window, the count drops below the limit.
 */
async function waits(db: Kysely<DB>, quota: UploadQuota, userId: number) {
  const found: { seconds: number; limit: number; name: string }[] = [];
  for (const window of WINDOWS) {
    const limit = quota[window.limit];
    if (limit <= 0) continue;
    const { rows } = await sql<{ wait: number }>`
      select extract(epoch from uploaded_at + make_interval(secs => ${window.seconds}) - now()) as wait
      from photo_upload_log
      where user_id = ${userId} and uploaded_at > now() - make_interval(secs => ${window.seconds})
      order by uploaded_at desc
      offset ${limit - 1} limit 1`.execute(db);
    const wait = rows[0] ? Number(rows[0].wait) : null;
    if (wait !== null) found.push({ seconds: Math.max(1, Math.ceil(wait)), limit, name: window.name });
  }
  return found;
}

async function refuseWhenFull(db: Kysely<DB>, quota: UploadQuota, userId: number): Promise<void> {
  const full = await waits(db, quota, userId);
  if (full.length === 0) return;
  const longest = full.reduce((a, b) => (b.seconds > a.seconds ? b : a));
  throw new RateLimited(
    `Upload limit reached: at most ${longest.limit} photos ${longest.name}. Try again in ${longest.seconds} seconds.`,
    longest.seconds,
  );
}

/** A cheap look before the file is received; the upload's transaction decides (claimUpload). */
export async function checkUploadQuota(db: Kysely<DB>, quota: UploadQuota, userId: number): Promise<void> {
  if (!quotaOn(quota)) return;
  await refuseWhenFull(db, quota, userId);
}

function quotaOn(quota: UploadQuota): boolean {
  return quota.perMinute > 0 || quota.perDay > 0;
}

/** The lock an upload's transaction takes for claimUpload: none while no quota is set. */
export function quotaLocks(quota: UploadQuota, userId: number): Lock[] {
  return quotaOn(quota) ? [uploadQuotaLock(userId)] : [];
}

/**
 * Inside the upload's transaction, which holds quotaLocks: refuses when a quota is full, else
 * counts this upload.
 */
export async function claimUpload(trx: Kysely<DB>, quota: UploadQuota, userId: number): Promise<void> {
  if (!quotaOn(quota)) return;
  await refuseWhenFull(trx, quota, userId);
  await sql`
    delete from photo_upload_log
    where user_id = ${userId} and uploaded_at <= now() - interval '1 day'`.execute(trx);
  await trx.insertInto('photo_upload_log').values({ user_id: userId }).execute();
}

/** A deleted account's upload counts: ids of nobody, kept no longer. */
export async function forgetUploads(trx: Kysely<DB>, userId: number): Promise<void> {
  await trx.deleteFrom('photo_upload_log').where('user_id', '=', userId).execute();
}
