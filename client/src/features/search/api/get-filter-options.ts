import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { FilterOptions } from '../../../../../contract/search.ts';

export type { FilterOptions };

export function getFilterOptions(signal?: AbortSignal): Promise<FilterOptions> {
  return api.get<FilterOptions>('/api/search/filters', { signal });
}

/** Breeds and personalities for the filter dropdowns (either list may be missing from the answer). */
export const filterOptionsQuery = queryOptions({
  queryKey: queryKeys.filterOptions,
  queryFn: async ({ signal }): Promise<FilterOptions> => {
    const loaded = await getFilterOptions(signal);
    return { breeds: loaded.breeds ?? [], personalities: loaded.personalities ?? [] };
  },
});
