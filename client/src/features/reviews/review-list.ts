import type { Review } from '../../lib/catalogue.ts';
import type { ReviewPage } from '../../../../contract/reviews.ts';

/** One page of a cat's or shop's reviews, as the server answers it. */
export type { ReviewPage };

/** Reviews per page of a cat's or shop's list. */
export const REVIEWS_PER_PAGE = 20;

/** Adds reviews not yet listed (by id), keeping the list newest first. */
export function mergeReviews(known: readonly Review[], incoming: readonly Review[]): Review[] {
  const byId = new Map(known.map((r) => [r.id, r]));
  for (const review of incoming) byId.set(review.id, review);
  return [...byId.values()].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
}
