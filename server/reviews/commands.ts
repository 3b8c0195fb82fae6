// Deciders for posting and deleting reviews. Each runs inside the caller's transaction and appends
// to the review's own stream; the reviews projection makes the write visible in the same commit.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { Conflict, Forbidden, NotFound } from '../errors.ts';
import { passWriterGate, type EventStore } from '../events/store.ts';
import { targetLockKey, targetNotFound, type Target } from '../events/targets.ts';
import { streamIds, type EventMetadata } from '../events/types.ts';
import type { Review } from '../../contract/reviews.ts';

export const COMMENT_MAX = 2000;

export type PostReview = { userId: number; target: Target; rating: number; comment: string };

function alreadyReviewed(target: Target): Conflict {
  return new Conflict(`You have already reviewed this ${target.type}`, 'already_reviewed');
}

function isOnePerUserViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23505' && String(e.message).includes('reviews_one_per_user');
}

/**
 * Posts a review and returns it as the API shows it (the same row the projection wrote in this
 * transaction). Three statements before the append: the locks, then the checks and the new id.
 */
export async function postReview(
  trx: Kysely<DB>,
  store: EventStore,
  input: PostReview,
  metadata: EventMetadata,
): Promise<Review> {
  const { target, userId } = input;
  // The writer gate (if the caller's transaction has not passed it), the target's shared lock (see
  // lockTarget), then this user's lock on it, in one statement: two posts by one user for one
  // target queue here, and the second then sees the first's row. The unique index stays the last
  // word should anything write reviews without this lock.
  const key = `review-${target.type}-${target.id}-${userId}`;
  await passWriterGate(trx, [
    sql`pg_advisory_xact_lock_shared(hashtextextended(${targetLockKey(target)}, 0))`,
    sql`pg_advisory_xact_lock(hashtextextended(${key}, 0))`,
  ]);
  // The target must exist and stay (key share, as holdTarget), the user must not have reviewed it;
  // only then is an id drawn.
  const table = target.type === 'cat' ? 'cats' : 'bodegas';
  const { rows } = await sql<{ existing: number | null; id: string | null; username: string | null }>`
    select r.id as existing,
           case when r.id is null then nextval('review_ids') end as id,
           (select username from users where id = ${userId}) as username
    from (select id from ${sql.table(table)} where id = ${target.id} for key share) t
    left join reviews r on r.target_type = ${target.type} and r.target_id = t.id and r.user_id = ${userId}`.execute(
    trx,
  );
  const found = rows[0];
  if (!found) throw targetNotFound(target);
  if (found.existing !== null || found.id === null) throw alreadyReviewed(target);

  const id = Number(found.id);
  const data = {
    review_id: id,
    target_type: target.type,
    target_id: target.id,
    user_id: userId,
    rating: input.rating,
    comment: input.comment,
  };
  let recordedAt: Date;
  try {
    const { events } = await store.append(trx, streamIds.review(id), 0, [{ type: 'ReviewPosted', data }], {
      metadata,
    });
    recordedAt = events[0]!.recordedAt;
  } catch (error) {
    if (isOnePerUserViolation(error)) throw alreadyReviewed(target);
    throw error;
  }
  return {
    id,
    rating: input.rating,
    comment: input.comment,
    created_at: recordedAt.toISOString(),
    user: { id: userId, username: found.username ?? '' },
    cat_id: target.type === 'cat' ? target.id : null,
    bodega_id: target.type === 'bodega' ? target.id : null,
  };
}

export async function deleteReview(
  trx: Kysely<DB>,
  store: EventStore,
  input: { userId: number; reviewId: number },
  metadata: EventMetadata,
): Promise<void> {
  const row = await trx
    .selectFrom('reviews')
    .select(['id', 'target_type', 'target_id', 'user_id'])
    .where('id', '=', input.reviewId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new NotFound('Review not found');
  if (Number(row.user_id) !== input.userId) throw new Forbidden('You can only delete your own reviews');
  const data = {
    review_id: input.reviewId,
    target_type: row.target_type,
    target_id: Number(row.target_id),
    user_id: input.userId,
  };
  await store.append(trx, streamIds.review(input.reviewId), 'any', [{ type: 'ReviewDeleted', data }], {
    metadata,
  });
}
