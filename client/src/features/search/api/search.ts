import { api } from '../../../lib/api.ts';
import type { BodegaSummary, CatSummary, SearchPagination } from '../../../lib/catalogue.ts';
import type { SearchRequest } from '../model/search-request.ts';

export type SearchPage =
  | { kind: 'cats'; items: CatSummary[]; pagination: SearchPagination }
  | { kind: 'bodegas'; items: BodegaSummary[]; pagination: SearchPagination };

type SearchResponse = { cats?: CatSummary[]; bodegas?: BodegaSummary[]; pagination?: SearchPagination };

/** One page of cats or bodegas from the text or the nearby search. */
export async function fetchSearchPage(request: SearchRequest, kind: 'cats' | 'bodegas'): Promise<SearchPage> {
  const body = await api.get<SearchResponse>(request.path, { query: request.query });
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
