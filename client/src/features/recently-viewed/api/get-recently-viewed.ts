import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { RecentlyViewedPage, ViewedItem } from '../types.ts';

/** The signed-in user's history, newest first (the server keeps at most 50 items). */
export function getRecentlyViewed(signal?: AbortSignal): Promise<RecentlyViewedPage> {
  return api.get<RecentlyViewedPage>('/api/users/recently-viewed', { query: { per_page: 50 }, signal });
}

export const recentlyViewedQuery = queryOptions({
  queryKey: queryKeys.recentlyViewed,
  queryFn: async ({ signal }): Promise<ViewedItem[]> => (await getRecentlyViewed(signal)).recently_viewed,
});
