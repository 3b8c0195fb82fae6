// The result list as the screen shows it: the pages loaded so far, each result once. (How live
// events change cached results: features/live/cache-updates.ts.)
import type { BodegaSummary, CatSummary, SearchPagination } from '../../../lib/catalogue.ts';

/** One page of cats or bodegas as the search answers it (api/search.ts). */
export type SearchPage =
  | { kind: 'cats'; items: CatSummary[]; pagination: SearchPagination }
  | { kind: 'bodegas'; items: BodegaSummary[]; pagination: SearchPagination };

type Counts = { total: number; totalExact: boolean; page: number; pages: number };

export type SearchResults =
  ({ kind: 'cats'; items: CatSummary[] } & Counts) | ({ kind: 'bodegas'; items: BodegaSummary[] } & Counts);

/**
 * The result count as the heading shows it: "1,234", or "about 31,000" for an estimate. Grouped by
 * hand as en-US does: the page's first toLocaleString loads the browser's number formats, a long
 * task of its own on a slow phone.
 */
export function resultCount(total: number, exact: boolean): string {
  const shown = String(total).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return exact ? shown : `about ${shown}`;
}

export function toResults(page: SearchPage): SearchResults {
  const { total, page: current, pages, total_exact } = page.pagination;
  const counts = { total, totalExact: total_exact, page: current, pages };
  return page.kind === 'cats'
    ? { kind: 'cats', items: page.items, ...counts }
    : { kind: 'bodegas', items: page.items, ...counts };
}

/** A next page added to the results: what it repeats is left out, its counts are the newer ones. */
export function appendPage(results: SearchResults, next: SearchResults): SearchResults {
  if (results.kind !== next.kind) return next;
  const seen = new Set(results.items.map((item) => item.id));
  const fresh = (next.items as { id: number }[]).filter((item) => !seen.has(item.id));
  return { ...next, items: [...results.items, ...fresh] } as SearchResults;
}

export function combinePages(pages: readonly SearchResults[]): SearchResults | null {
  const [first, ...rest] = pages;
  return first ? rest.reduce(appendPage, first) : null;
}
