import { infiniteQueryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { BodegaSummary, CatSummary } from '../../../lib/catalogue.ts';
import type { NearbyList } from '../../../../../contract/search.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { toResults, type SearchPage, type SearchResults } from '../model/results.ts';
import { searchRequest, type SearchRequest } from '../model/search-request.ts';
import type { Coordinates } from '../../../lib/coordinates.ts';
import type { SearchState } from '../model/search-state.ts';

/** A page of the text search (CatList or BodegaList) or of nearby, read as either. */
type SearchResponse = Partial<NearbyList>;

/** One page of cats or bodegas from the text or the nearby search. */
export async function fetchSearchPage(
  request: SearchRequest,
  kind: 'cats' | 'bodegas',
  signal?: AbortSignal,
): Promise<SearchPage> {
  const body = await api.get<SearchResponse>(request.path, { query: request.query, signal });
  const items = (kind === 'cats' ? body.cats : body.bodegas) ?? [];
  const pagination = body.pagination ?? {
    page: 1,
    per_page: items.length,
    total: items.length,
    pages: 1,
    total_exact: true,
  };
  return kind === 'cats'
    ? { kind, items: items as CatSummary[], pagination }
    : { kind, items: items as BodegaSummary[], pagination };
}

/** What a search is of: the screen's state, the user's position if known, the nearby radius. */
export type SearchInputs = { state: SearchState; location: Coordinates | null; radiusKm: number };

/** A search's pages in the cache, keyed by the request of its first page. */
export function searchQuery({ state, location, radiusKm }: SearchInputs) {
  return infiniteQueryOptions({
    queryKey: queryKeys.search(searchRequest(state, location, 1, radiusKm)),
    queryFn: async ({ pageParam, signal }): Promise<SearchResults> =>
      toResults(
        await fetchSearchPage(searchRequest(state, location, pageParam, radiusKm), state.tab, signal),
      ),
    initialPageParam: 1,
    getNextPageParam: (last: SearchResults) => (last.page < last.pages ? last.page + 1 : undefined),
  });
}
