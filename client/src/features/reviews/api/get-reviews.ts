import { infiniteQueryOptions, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { Review, TargetType } from '../../../lib/catalogue.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { readPageThroughLive, useLiveCatchUp, useLiveStream } from '../../live/index.ts';
import { mergeReviews, REVIEWS_PER_PAGE, type ReviewPage } from '../review-list.ts';

/** One page of a cat's or shop's reviews, newest first. */
export function getReviews(
  type: TargetType,
  targetId: number,
  page = 1,
  signal?: AbortSignal,
): Promise<ReviewPage> {
  return api.get<ReviewPage>(`/api/reviews/${type}/${targetId}`, {
    query: { page, per_page: REVIEWS_PER_PAGE },
    signal,
  });
}

export function reviewsQuery(type: TargetType, targetId: number) {
  return infiniteQueryOptions({
    queryKey: queryKeys.reviews(type, targetId),
    queryFn: ({ queryKey, pageParam, signal }) =>
      readPageThroughLive(queryKey, pageParam, () => getReviews(type, targetId, pageParam, signal)),
    initialPageParam: 1,
    getNextPageParam: ({ pagination }: ReviewPage) =>
      pagination.page < pagination.pages ? pagination.page + 1 : undefined,
  });
}

/**
 * The reviews listed so far (live: the stream adds new ones to the cache), and 'more'. A failed
 * read leaves the list as it was (or empty): the page stays useful without its reviews.
 */
export function useReviews(type: TargetType, targetId: number) {
  const query = useInfiniteQuery(reviewsQuery(type, targetId));
  const client = useQueryClient();
  useLiveStream();
  useLiveCatchUp(() => void client.invalidateQueries({ queryKey: queryKeys.reviews(type, targetId) }));
  const pages = query.data?.pages ?? [];
  return {
    reviews: pages.reduce<Review[]>((list, page) => mergeReviews(list, page.reviews), []),
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}
