// The Review shape of API.md and the queries behind it. Only the author's id and username leave
// this module: never an email.
import type { Kysely } from 'kysely';
import type { Review } from '../../contract/reviews.ts';
import type { DB } from '../db/schema.ts';
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

type ReviewListRow = Awaited<ReturnType<ReturnType<typeof selectReviews>['executeTakeFirstOrThrow']>>;

function toReview(row: ReviewListRow): Review {
  const targetId = Number(row.target_id);
  return {
    id: Number(row.id),
    rating: Number(row.rating),
    comment: row.comment,
    created_at: new Date(row.created_at).toISOString(),
    user: { id: Number(row.user_id), username: row.username ?? '' },
    cat_id: row.target_type === 'cat' ? targetId : null,
    bodega_id: row.target_type === 'bodega' ? targetId : null,
  };
}

export async function findReview(db: Kysely<DB>, id: number): Promise<Review | null> {
  const row = await selectReviews(db).where('reviews.id', '=', id).executeTakeFirst();
  return row ? toReview(row) : null;
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
  return { reviews: rows.map(toReview), total: Number(total) };
}
