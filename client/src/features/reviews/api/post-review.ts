import { api } from '../../../lib/api.ts';
import type { Review, TargetType } from '../../../lib/catalogue.ts';

export type NewReview = { rating: number; comment: string };

export async function postReview(type: TargetType, targetId: number, review: NewReview): Promise<Review> {
  const target = type === 'cat' ? { cat_id: targetId } : { bodega_id: targetId };
  const body = await api.post<{ review: Review }>('/api/reviews', { ...target, ...review });
  return body.review;
}
