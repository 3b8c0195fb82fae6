// How the reviews' cached lists change, in one place: a review its author just posted, and one the
// live stream announces (features/live applies it through ../live.ts).
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Review, TargetType } from '../../../lib/catalogue.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { mergeReviews, REVIEWS_PER_PAGE, type ReviewPage } from '../review-list.ts';

type ReviewsData = InfiniteData<ReviewPage>;

/** Adds a review to the cached list of its target (from the stream, or as its author posted it). */
export function addReview(client: QueryClient, type: TargetType, targetId: number, review: Review): void {
  const queryKey = queryKeys.reviews(type, targetId);
  if (
    client.getQueryData(queryKey) === undefined &&
    client.getQueryState(queryKey)?.fetchStatus === 'fetching'
  ) {
    // The list is still on its first read: show the review now; that read's answer, which may
    // predate it, gets it again (features/live/read-through-live.ts).
    const pagination = { page: 1, per_page: REVIEWS_PER_PAGE, total: 1, pages: 1 };
    client.setQueryData<ReviewsData>(queryKey, {
      pages: [{ reviews: [review], pagination }],
      pageParams: [1],
    });
    return;
  }
  client.setQueryData<ReviewsData>(queryKey, (data) => {
    const [first, ...rest] = data?.pages ?? [];
    if (!data || !first) return data;
    return { ...data, pages: [{ ...first, reviews: mergeReviews(first.reviews, [review]) }, ...rest] };
  });
}
