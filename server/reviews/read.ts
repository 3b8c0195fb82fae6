// The Review shape of API.md and the queries behind it. Only the author's id and username leave
// this module: never an email.
import type { Kysely } from 'kysely';
import type { Review } from '../../contract/reviews.ts';
import type { DB, ReviewRow } from '../db/schema.ts';
import type { Target } from '../events/targets.ts';

function selectReviews(db: Kysely<DB>) {
  return db
    .selectFrom('reviews')
    .leftJoin('users', 'users.id', 'reviews.user_id')
    .select([
      'reviews.id',
      'reviews.target_type',
      'reviews.target_id',
      'reviews.user_id',
      'reviews.rating',
      'reviews.comment',
      'reviews.created_at',
      'users.username',
    ]);
}

/**
 * A review as its row in the read table holds it, with its author's username: what the reviews
 * routes read, what a post wrote in its transaction, and what the live stream finds in its event.
 */
export type ReviewSource = Omit<ReviewRow, 'hidden'> & { username: string | null };

/** The one builder of the Review shape (drivers answer bigint columns as text, hence Number). */
export function toReview(row: ReviewSource): Review {
  const targetId = Number(row.target_id);
  return {
    id: Number(row.id),
    rating: Number(row.rating),
    comment: row.comment,
    created_at: new Date(row.created_at).toISOString(),
    user: { id: Number(row.user_id), username: row.username },
    cat_id: row.target_type === 'cat' ? targetId : null,
    bodega_id: row.target_type === 'bodega' ? targetId : null,
  };
}

/** The routes answer an author they cannot find as '' (the live stream as null). */
function toListedReview(row: ReviewSource): Review {
  return toReview({ ...row, username: row.username ?? '' });
}

export async function findReview(db: Kysely<DB>, id: number): Promise<Review | null> {
  const row = await selectReviews(db).where('reviews.id', '=', id).executeTakeFirst();
  return row ? toListedReview(row) : null;
}

/** A page of a target's reviews, newest first, and how many there are in all. */
export async function listReviews(
  db: Kysely<DB>,
  target: Target,
  page: number,
  perPage: number,
): Promise<{ reviews: Review[]; total: number }> {
  const rows = await selectReviews(db)
    .where('reviews.hidden', '=', false)
    .where('reviews.target_type', '=', target.type)
    .where('reviews.target_id', '=', target.id)
    .orderBy('reviews.created_at', 'desc')
    .orderBy('reviews.id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  const { total } = await db
    .selectFrom('reviews')
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where('hidden', '=', false)
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id)
    .executeTakeFirstOrThrow();
  return { reviews: rows.map(toListedReview), total: Number(total) };
}
