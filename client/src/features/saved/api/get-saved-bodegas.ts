import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { nextPageOf, type SavedPage } from '../saved-pages.ts';
import type { SavedBodega, SavedBodegasPage } from '../types.ts';

export function getSavedBodegas(page = 1, signal?: AbortSignal): Promise<SavedBodegasPage> {
  return api.get<SavedBodegasPage>('/api/users/savedbodegas', { query: { page, per_page: 50 }, signal });
}

export const savedBodegasQuery = infiniteQueryOptions({
  queryKey: queryKeys.saved('bodegas'),
  queryFn: async ({ pageParam, signal }): Promise<SavedPage<SavedBodega>> => {
    const { saved_bodegas, pagination } = await getSavedBodegas(pageParam, signal);
    return { items: saved_bodegas, pagination };
  },
  initialPageParam: 1,
  getNextPageParam: nextPageOf,
});
