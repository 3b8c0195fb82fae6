// The cache of server data, kept current by the live stream. It loads with the first screen that
// reads server data, not with the app shell (the home page needs none of it).
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useLiveCache } from '../features/live/index.ts';
import { createQueryClient } from '../lib/query-client.ts';

/** One cache for the app's whole visit: every screen reads through it. */
const appQueryClient = createQueryClient();

export function QueryProvider({
  client = appQueryClient,
  children,
}: {
  client?: QueryClient;
  children: ReactNode;
}) {
  useLiveCache(client);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
