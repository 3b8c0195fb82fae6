import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { nextPageOf, type SavedPage } from '../saved-pages.ts';
import type { SavedCat, SavedCatsPage } from '../types.ts';

export function getSavedCats(page = 1, signal?: AbortSignal): Promise<SavedCatsPage> {
  return api.get<SavedCatsPage>('/api/users/savedcats', { query: { page, per_page: 50 }, signal });
}

export const savedCatsQuery = infiniteQueryOptions({
  queryKey: queryKeys.saved('cats'),
  queryFn: async ({ pageParam, signal }): Promise<SavedPage<SavedCat>> => {
    const { saved_cats, pagination } = await getSavedCats(pageParam, signal);
    return { items: saved_cats, pagination };
  },
  initialPageParam: 1,
  getNextPageParam: nextPageOf,
});
