// Posting and deleting reviews: each loads what its decider (review.ts) decides on, inside the
// caller's transaction, and appends what it decided to the review's own stream; the reviews
// projection makes the write visible in the same commit.
import { sql } from 'kysely';
import { passWriterGate, type EventStore, type WriteTx } from '../events/store.ts';
import { targetLockKey } from '../events/targets.ts';
import { streamIds, type EventMetadata } from '../events/types.ts';
import type { Review } from '../../contract/reviews.ts';
import { toReview } from './read.ts';
import { alreadyReviewed, decideDelete, decidePost, type PostReview, type PostState } from './review.ts';

function isOnePerUserViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23505' && String(e.message).includes('reviews_one_per_user');
}

type PostRow = {
  existing: number | null;
  id: string | null;
  username: string | null;
  hidden: boolean;
  created_by: string | number | null;
};

/** What the post's combined statement read: no row when the target is gone, an id only if new. */
function postState(found: PostRow | undefined): PostState {
  if (!found) return { targetExists: false };
  return {
    targetExists: true,
    hidden: found.hidden,
    createdBy: found.created_by === null ? null : Number(found.created_by),
    reviewId: found.existing === null && found.id !== null ? Number(found.id) : null,
  };
}

/**
 * Posts a review and returns it as the API shows it (the same row the projection wrote in this
 * transaction). Three statements before the append: the locks, then the checks and the new id.
 */
export async function postReview(
  tx: WriteTx,
  store: EventStore,
  input: PostReview,
  metadata: EventMetadata,
): Promise<Review> {
  const { trx } = tx;
  const { target, userId } = input;
  // The writer gate (if the caller's transaction has not passed it; with the author's account hold,
  // see runCommand), the target's shared lock (see lockTarget), then this user's lock on it, in one
  // statement: two posts by one user for one target queue here, and the second then sees the
  // first's row. The unique index stays the last word should anything write reviews without this
  // lock.
  const key = `review-${target.type}-${target.id}-${userId}`;
  await passWriterGate(tx, [
    sql`pg_advisory_xact_lock_shared(hashtextextended(${targetLockKey(target)}, 0))`,
    sql`pg_advisory_xact_lock(hashtextextended(${key}, 0))`,
  ]);
  // The target must exist and stay (key share, as holdTarget) and be shown to the user (read here,
  // decided by decidePost), the user must not have reviewed it; only then is an id drawn.
  const table = target.type === 'cat' ? 'cats' : 'bodegas';
  const { rows } = await sql<PostRow>`
    select r.id as existing,
           case when r.id is null then nextval('review_ids') end as id,
           (select username from users where id = ${userId}) as username,
           t.hidden, t.created_by
    from (select id, hidden, created_by from ${sql.table(table)} where id = ${target.id} for key share) t
    left join reviews r on r.target_type = ${target.type} and r.target_id = t.id and r.user_id = ${userId}`.execute(
    trx,
  );
  const found = rows[0];
  const events = decidePost(input, postState(found));
  const id = events[0]!.data.review_id;
  let recordedAt: Date;
  try {
    const appended = await store.append(tx, streamIds.review(id), 0, events, { metadata });
    recordedAt = appended.events[0]!.recordedAt;
  } catch (error) {
    if (isOnePerUserViolation(error)) throw alreadyReviewed(target);
    throw error;
  }
  const { rating, comment } = input;
  const row = { id, target_type: target.type, target_id: target.id, user_id: userId, rating, comment };
  return toReview({ ...row, created_at: recordedAt, username: found?.username ?? '' });
}

export async function deleteReview(
  tx: WriteTx,
  store: EventStore,
  input: { userId: number; reviewId: number },
  metadata: EventMetadata,
): Promise<void> {
  const row = await tx.trx
    .selectFrom('reviews')
    .select(['id', 'target_type', 'target_id', 'user_id'])
    .where('id', '=', input.reviewId)
    .forUpdate()
    .executeTakeFirst();
  const review = row && {
    id: Number(row.id),
    target: { type: row.target_type, id: Number(row.target_id) },
    userId: Number(row.user_id),
  };
  const events = decideDelete(input, review ?? null);
  await store.append(tx, streamIds.review(input.reviewId), 'any', events, {
    metadata,
  });
}
