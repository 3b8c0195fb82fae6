// One saved list (cats or bodegas): its pages from the query cache, 'Load more', and removing an
// item from it (the cache drops it once the server agrees, api/cache.ts).
import {
  useInfiniteQuery,
  useMutationState,
  type InfiniteData,
  type QueryKey,
  type UseInfiniteQueryOptions,
} from '@tanstack/react-query';
import toast from 'react-hot-toast/headless';
import { errorMessage } from '../../../lib/api.ts';
import { mutationKeys } from '../../../lib/query-keys.ts';
import { useSetSavedMutation, type SavedChange } from '../api/set-saved.ts';
import { listOf, type SavedPage } from '../saved-pages.ts';
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
  const unsave = useSetSavedMutation();
  // Every removal still running, of this list's kind (several may run at once).
  const pending = useMutationState({
    filters: { mutationKey: mutationKeys.setSaved, status: 'pending' },
    select: (mutation) => mutation.state.variables as SavedChange,
  });
  const removing = new Set(pending.filter((change) => change.kind === kind).map((change) => change.id));

  async function loadMore() {
    const result = await query.fetchNextPage();
    if (result.isError) toast.error(errorMessage(result.error, 'Failed to load saved items'));
  }

  async function remove(id: number) {
    try {
      await unsave.mutateAsync({ kind, id, saved: false });
      toast.success(`Removed from saved ${kind}`);
    } catch (error) {
      toast.error(errorMessage(error, `Failed to remove from saved ${kind}`));
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
