// A saved list as the cache holds it (pages of 50) and as the screen shows it (one list).
import { infiniteQueryOptions, type InfiniteData } from '@tanstack/react-query';
import type { Pagination } from '../../lib/catalogue.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import type { SavedKind } from './types.ts';

export type SavedPage<T> = { items: T[]; pagination: Pagination };

export function nextPageOf({ pagination }: SavedPage<unknown>): number | undefined {
  return pagination.page < pagination.pages ? pagination.page + 1 : undefined;
}

/** Every page's items, each once, and the total the newest page gave. */
export function listOf<T extends { id: number }>(data: InfiniteData<SavedPage<T>> | undefined) {
  const items: T[] = [];
  const seen = new Set<number>();
  for (const page of data?.pages ?? []) {
    for (const item of page.items) if (!seen.has(item.id) && seen.add(item.id)) items.push(item);
  }
  return { items, total: data?.pages.at(-1)?.pagination.total ?? 0 };
}

/** The list without an item the user removed; the total counts one fewer. */
export function withoutItem<T extends { id: number }>(data: InfiniteData<SavedPage<T>>, id: number) {
  const pages = data.pages.map(({ items, pagination }) => ({
    items: items.filter((item) => item.id !== id),
    pagination: { ...pagination, total: Math.max(0, pagination.total - 1) },
  }));
  return { ...data, pages };
}

/** A saved list's pages in the cache, read by `read` (one page of 50, newest saved first). */
export function savedListQuery<T>(
  kind: SavedKind,
  read: (page: number, signal: AbortSignal) => Promise<SavedPage<T>>,
) {
  return infiniteQueryOptions({
    queryKey: queryKeys.saved(kind),
    queryFn: ({ pageParam, signal }) => read(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
  });
}
