// Deleting an account, in the caller's transaction. The person's reviews and photos leave the log
// the way single deletions do (so ratings are recomputed and photo files removed by the jobs those
// events dispatch); AccountDeleted then drives every other projection (saves, reports, the
// catalogue's created_by); the users row goes, and so does the data key every personal field they
// wrote was sealed under (server/events/personal.ts). Recently viewed and stored idempotent
// answers are not events and are deleted here.
import type { PhotoRow } from '../db/schema.ts';
import { Unauthorized } from '../errors.ts';
import { accountLock, targetPhotosLock } from '../events/locks.ts';
import { ACCOUNT_GONE } from '../events/personal.ts';
import type { EventStore, WriteTx } from '../events/store.ts';
import { streamIds } from '../events/types.ts';
import { forgetIdempotentAnswers } from '../http/idempotency.ts';
import { clearRecentlyViewed } from '../lists/recently-viewed.ts';
import { deletePhoto } from '../photos/commands.ts';
import { forgetUploads } from '../photos/quota.ts';
import { forgetSignInsOf } from './login-limits.ts';
import { deleteReview } from '../reviews/commands.ts';
import type { AccountCommand } from './commands.ts';

export const WRONG_PASSWORD = 'Password is incorrect';

/** Answers the deleted photos, whose files the caller removes once the transaction has committed. */
export async function deleteAccount(
  tx: WriteTx,
  store: EventStore,
  command: AccountCommand,
): Promise<PhotoRow[]> {
  const { trx } = tx;
  const { userId, metadata } = command;
  // The person's account lock first, which their uploads take before the photo locks that the
  // photo deletions below take too (accountLock): an upload in flight commits before this goes
  // on, and its photo is deleted with the rest; one that comes later waits, then is refused (401).
  // Every write by the person holds that lock too (shared), from its start (runCommand). Then the
  // account row: any write that seals under the person's key holds it (key share) and so finishes
  // before this goes on, or starts after and finds no account (401); a view records itself
  // holding it too (recordView).
  await tx.lock([accountLock(userId, 'exclusive')]);
  const account = await trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!account) throw new Unauthorized(ACCOUNT_GONE);

  const reviews = await trx
    .selectFrom('reviews')
    .select('id')
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  for (const { id } of reviews) {
    await tx.run(deleteReview(store, { userId, reviewId: Number(id) }, metadata));
  }

  const photos = await trx
    .selectFrom('photos')
    .select(['id', 'target_type', 'target_id'])
    .where('uploaded_by', '=', userId)
    .orderBy('id')
    .execute();
  const targets = photos.map((photo) => ({ type: photo.target_type, id: Number(photo.target_id) }));
  // The photo locks of every target at once, in their order, before the first deletion takes one.
  await tx.lock(targets.map(targetPhotosLock));
  const deleted: PhotoRow[] = [];
  for (const [i, photo] of photos.entries()) {
    const change = { target: targets[i]!, photoId: Number(photo.id), actorId: userId };
    deleted.push(await tx.run(deletePhoto(store, change, metadata)));
  }

  await store.append(
    tx,
    streamIds.account(userId),
    'any',
    [{ type: 'AccountDeleted', data: { user_id: userId } }],
    {
      metadata,
    },
  );
  await clearRecentlyViewed(trx, userId);
  await forgetIdempotentAnswers(trx, userId);
  await forgetUploads(trx, userId);
  await forgetSignInsOf(trx, userId);
  // Without its key, everything the person wrote into the log can never be read again.
  await trx.deleteFrom('user_keys').where('user_id', '=', userId).execute();
  await trx.deleteFrom('users').where('id', '=', userId).execute();
  return deleted;
}
