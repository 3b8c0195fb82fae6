// The result list as the screen shows it: the pages loaded so far, each result once. (How live
// events change cached results: features/live/cache-updates.ts.)
import type { BodegaSummary, CatSummary } from '../../../lib/catalogue.ts';
import type { SearchPage } from '../api/search.ts';

export type SearchResults =
  | { kind: 'cats'; items: CatSummary[]; total: number; page: number; pages: number }
  | { kind: 'bodegas'; items: BodegaSummary[]; total: number; page: number; pages: number };

export function toResults(page: SearchPage): SearchResults {
  const { total, page: current, pages } = page.pagination;
  return page.kind === 'cats'
    ? { kind: 'cats', items: page.items, total, page: current, pages }
    : { kind: 'bodegas', items: page.items, total, page: current, pages };
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
