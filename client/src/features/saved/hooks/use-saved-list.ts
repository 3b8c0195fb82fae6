// One saved list (cats or bodegas): its pages from the query cache, 'Load more', and removing an
// item from it.
import {
  useInfiniteQuery,
  useQueryClient,
  type InfiniteData,
  type QueryKey,
  type UseInfiniteQueryOptions,
} from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { errorMessage } from '../../../lib/api.ts';
import { unsave } from '../api/unsave.ts';
import { listOf, withoutItem, type SavedPage } from '../saved-pages.ts';
import type { SavedKind } from '../types.ts';

export type SavedList<T> = {
  items: T[];
  total: number;
  hasMore: boolean;
  loadingMore: boolean;
  loading: boolean;
  error: Error | null;
  removing: ReadonlySet<number>;
  loadMore(): Promise<void>;
  remove(id: number): Promise<void>;
};

type SavedQuery<T, Key extends QueryKey> = UseInfiniteQueryOptions<
  SavedPage<T>,
  Error,
  InfiniteData<SavedPage<T>>,
  Key,
  number
>;

export function useSavedList<T extends { id: number }, Key extends QueryKey>(
  kind: SavedKind,
  savedQuery: SavedQuery<T, Key>,
): SavedList<T> {
  const query = useInfiniteQuery(savedQuery);
  const client = useQueryClient();
  const [removing, setRemoving] = useState<ReadonlySet<number>>(new Set());

  async function loadMore() {
    const result = await query.fetchNextPage();
    if (result.isError) toast.error(errorMessage(result.error, 'Failed to load saved items'));
  }

  async function remove(id: number) {
    setRemoving((s) => new Set(s).add(id));
    try {
      await unsave(kind, id);
      client.setQueryData<InfiniteData<SavedPage<T>>>(
        savedQuery.queryKey,
        (data) => data && withoutItem(data, id),
      );
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
    ...listOf(query.data),
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loading: query.isPending,
    error: query.data ? null : query.error,
    removing,
    loadMore,
    remove,
  };
}
