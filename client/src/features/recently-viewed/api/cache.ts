// How the cached history changes with the user's own writes, in one place.
import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { ViewedItem } from '../types.ts';

export function historyCleared(client: QueryClient): void {
  client.setQueryData<ViewedItem[]>(queryKeys.recentlyViewed, []);
}
