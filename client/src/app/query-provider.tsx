import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useLiveCache } from '../features/live/use-live-cache.ts';
import { createQueryClient } from '../lib/query-client.ts';

/** The cache of server data, kept current by the live stream; a fresh one unless `client` is given. */
export function QueryProvider({ client, children }: { client?: QueryClient; children: ReactNode }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  useLiveCache(queryClient);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
