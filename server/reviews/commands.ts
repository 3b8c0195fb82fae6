// Deciders for posting and deleting reviews. Each runs inside the caller's transaction and appends
// to the review's own stream; the reviews projection makes the write visible in the same commit.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { Conflict, Forbidden, NotFound } from '../errors.ts';
import { nextId, type EventStore } from '../events/store.ts';
import { holdTarget } from '../events/target-rows.ts';
import { streamIds, type EventMetadata } from '../events/types.ts';
import type { ReviewTarget } from './read.ts';

export const COMMENT_MAX = 2000;

export type PostReview = { userId: number; target: ReviewTarget; rating: number; comment: string };

const targetNames = { cat: 'Cat', bodega: 'Bodega' } as const;

function alreadyReviewed(target: ReviewTarget): Conflict {
  return new Conflict(`You have already reviewed this ${target.type}`, 'already_reviewed');
}

export async function requireTarget(db: Kysely<DB>, target: ReviewTarget): Promise<void> {
  const table = target.type === 'cat' ? 'cats' : 'bodegas';
  const row = await db.selectFrom(table).select('id').where('id', '=', target.id).executeTakeFirst();
  if (!row) throw new NotFound(`${targetNames[target.type]} not found`);
}

function isOnePerUserViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23505' && String(e.message).includes('reviews_one_per_user');
}

export async function postReview(
  trx: Kysely<DB>,
  store: EventStore,
  input: PostReview,
  metadata: EventMetadata,
): Promise<number> {
  const { target, userId } = input;
  await holdTarget(trx, target);
  // Two posts by one user for one target queue here; the second then sees the first's row. The
  // unique index stays the last word should anything write reviews without this lock.
  const key = `review-${target.type}-${target.id}-${userId}`;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  const existing = await trx
    .selectFrom('reviews')
    .select('id')
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (existing) throw alreadyReviewed(target);

  const id = await nextId(trx, 'review_ids');
  const data = {
    review_id: id,
    target_type: target.type,
    target_id: target.id,
    user_id: userId,
    rating: input.rating,
    comment: input.comment,
  };
  try {
    await store.append(trx, streamIds.review(id), 0, [{ type: 'ReviewPosted', data }], { metadata });
  } catch (error) {
    if (isOnePerUserViolation(error)) throw alreadyReviewed(target);
    throw error;
  }
  return id;
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
