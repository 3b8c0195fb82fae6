// A person's reviews, for their account's deletion and export (accounts/personal-data.ts).
import type { Erasure } from '../accounts/index.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { deleteReview } from './commands.ts';

export const reviewsPersonalData = {
  /** Each review leaves the log as its author's own deletion would, so its rating is recomputed. */
  async erase({ tx, store, userId, metadata }: Erasure) {
    const reviews = await tx.trx
      .selectFrom('reviews')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    for (const { id } of reviews) {
      await tx.run(deleteReview(store, { userId, reviewId: Number(id) }, metadata));
    }
    return { removed: { reviews: reviews.length } };
  },

  async export(trx: Kysely<DB>, userId: number) {
    const reviews = await trx
      .selectFrom('reviews')
      .select(['id', 'target_type', 'target_id', 'rating', 'comment', 'hidden', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    return {
      reviews: reviews.map((r) => ({
        id: Number(r.id),
        target_type: r.target_type,
        target_id: Number(r.target_id),
        rating: Number(r.rating),
        comment: r.comment,
        hidden: r.hidden,
        created_at: new Date(r.created_at).toISOString(),
      })),
    };
  },
};
