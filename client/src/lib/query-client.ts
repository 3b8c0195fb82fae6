// The app's cache of server data (TanStack Query). The defaults keep the product's behaviour: a
// screen reads its data afresh each time it opens (a read no screen shows is dropped at once, so
// nothing stale flashes up on the next visit); while it is open the cache serves it (live updates,
// further pages, the last results while the next search runs); a failed read is reported at once
// (no retries); data changes through the live stream, not when the window regains focus.
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { gcTime: 0, retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false },
    },
  });
}
