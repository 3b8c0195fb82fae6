// Posting and deleting reviews: each loads what its decider (review.ts) decides on, inside the
// caller's transaction, and appends what it decided to the review's own stream; the reviews
// projection makes the write visible in the same commit.
import { sql } from 'kysely';
import { reviewLock, targetLock } from '../events/locks.ts';
import type { EventStore, Write, WriteTx } from '../events/store.ts';
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
 * transaction). Two statements before the append: the locks, taken with the writer gate and the
 * author's account hold in the transaction's first, then the checks and the new id.
 */
export function postReview(store: EventStore, input: PostReview, metadata: EventMetadata): Write<Review> {
  const { target, userId } = input;
  return {
    // The target's shared lock, then this person's review lock on it: two posts by one person for
    // one target queue there, and the second then sees the first's row.
    locks: [targetLock(target, 'shared'), reviewLock(target, userId)],
    run: (tx) => post(tx, store, input, metadata),
  };
}

async function post(
  tx: WriteTx,
  store: EventStore,
  input: PostReview,
  metadata: EventMetadata,
): Promise<Review> {
  const { trx } = tx;
  const { target, userId } = input;
  // The target must exist and stay (key share) and be shown to the user (read here,
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

/** Deletes a review of the person's own. It takes no lock but the review's row. */
export function deleteReview(
  store: EventStore,
  input: { userId: number; reviewId: number },
  metadata: EventMetadata,
): Write<void> {
  return { locks: [], run: (tx) => removeReview(tx, store, input, metadata) };
}

async function removeReview(
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
