// The app's cache of server data (TanStack Query). The defaults keep the product's behaviour: a
// failed read is reported at once (no retries), and data changes through the live stream, not
// through refetching whenever the window regains focus or the network returns.
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false },
      mutations: { retry: false },
    },
  });
}
