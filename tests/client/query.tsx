// The query cache for component tests: a fresh one per render (not the app's), and change notices delivered at once
// (the app batches them to the next tick), so a live message's effect shows within its act().
import { notifyManager } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { QueryProvider as AppQueryProvider } from '../../client/src/app/query-provider.tsx';
import { createQueryClient } from '../../client/src/lib/query-client.ts';

notifyManager.setScheduler((callback) => callback());

export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  return <AppQueryProvider client={client}>{children}</AppQueryProvider>;
}
