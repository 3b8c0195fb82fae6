import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Review, TargetType } from '../../../lib/catalogue.ts';
import { addReview } from './cache.ts';
import type { NewReviewBody, PostedReview } from '../../../../../contract/reviews.ts';

/** What the review form sends: a rating and a comment, maybe empty. */
export type NewReview = Required<Pick<NewReviewBody, 'rating'>> & { comment: string };

export async function postReview(type: TargetType, targetId: number, review: NewReview): Promise<Review> {
  const target = type === 'cat' ? { cat_id: targetId } : { bodega_id: targetId };
  const body: NewReviewBody = { ...target, ...review };
  return (await api.post<PostedReview>('/api/reviews', body)).review;
}

/** Posts a review; it joins its target's cached list at once, as the server answered it. */
export const postReviewMutation = mutationOptions({
  mutationFn: ({ type, targetId, review }: { type: TargetType; targetId: number; review: NewReview }) =>
    postReview(type, targetId, review),
  onSuccess: (review, { type, targetId }, _context, { client }) => addReview(client, type, targetId, review),
});

export function usePostReviewMutation() {
  return useMutation(postReviewMutation);
}
