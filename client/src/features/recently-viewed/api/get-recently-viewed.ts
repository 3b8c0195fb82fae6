import { api } from '../../../lib/api.ts';
import type { RecentlyViewedPage } from '../types.ts';

/** The signed-in user's history, newest first (the server keeps at most 50 items). */
export function getRecentlyViewed(): Promise<RecentlyViewedPage> {
  return api.get<RecentlyViewedPage>('/api/users/recently-viewed', { query: { per_page: 50 } });
}
