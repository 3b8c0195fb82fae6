import { api } from '../../../lib/api.ts';
import type { Pagination, Review, TargetType } from '../../../lib/catalogue.ts';

export type ReviewPage = { reviews: Review[]; pagination: Pagination };

/** One page of a cat's or shop's reviews, newest first. */
export function getReviews(type: TargetType, targetId: number, page = 1): Promise<ReviewPage> {
  return api.get<ReviewPage>(`/api/reviews/${type}/${targetId}`, { query: { page, per_page: 20 } });
}
