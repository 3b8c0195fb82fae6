// One saved list (cats or bodegas): its first page, 'Load more', and removing an item from it.
import { useCallback, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { errorMessage } from '../../../lib/api.ts';
import type { Pagination } from '../../../lib/catalogue.ts';
import { unsave } from '../api/unsave.ts';
import type { SavedKind } from '../types.ts';

type Page<T> = { items: T[]; pagination: Pagination };

export type SavedList<T> = {
  items: T[];
  total: number;
  hasMore: boolean;
  loadingMore: boolean;
  removing: ReadonlySet<number>;
  setFirstPage(page: Page<T>): void;
  loadMore(): Promise<void>;
  remove(id: number): Promise<void>;
};

export function useSavedList<T extends { id: number }>(
  kind: SavedKind,
  fetchPage: (page: number) => Promise<Page<T>>,
): SavedList<T> {
  const [items, setItems] = useState<T[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState({ page: 0, pages: 0 });
  const [loadingMore, setLoadingMore] = useState(false);
  const [removing, setRemoving] = useState<ReadonlySet<number>>(new Set());

  const setFirstPage = useCallback(({ items, pagination }: Page<T>) => {
    setItems(items);
    setTotal(pagination.total);
    setPage({ page: 1, pages: pagination.pages });
  }, []);

  async function loadMore() {
    setLoadingMore(true);
    try {
      const next = await fetchPage(page.page + 1);
      setItems((known) => [...known, ...next.items.filter((i) => !known.some((k) => k.id === i.id))]);
      setTotal(next.pagination.total);
      setPage({ page: page.page + 1, pages: next.pagination.pages });
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to load saved items'));
    } finally {
      setLoadingMore(false);
    }
  }

  async function remove(id: number) {
    setRemoving((s) => new Set(s).add(id));
    try {
      await unsave(kind, id);
      setItems((known) => known.filter((i) => i.id !== id));
      setTotal((t) => Math.max(0, t - 1));
      toast.success(`Removed from saved ${kind}`);
    } catch (error) {
      toast.error(errorMessage(error, `Failed to remove from saved ${kind}`));
    } finally {
      setRemoving((s) => {
        const next = new Set(s);
        next.delete(id);
        return next;
      });
    }
  }

  return {
    items,
    total,
    hasMore: page.page > 0 && page.page < page.pages,
    loadingMore,
    removing,
    setFirstPage,
    loadMore,
    remove,
  };
}
