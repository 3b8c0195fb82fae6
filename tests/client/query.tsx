// The query cache for component tests: a fresh one per render, and change notices delivered at once
// (the app batches them to the next tick), so a live message's effect shows within its act().
import { notifyManager } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { QueryProvider as AppQueryProvider } from '../../client/src/app/query-provider.tsx';

notifyManager.setScheduler((callback) => callback());

export function QueryProvider({ children }: { children: ReactNode }) {
  return <AppQueryProvider>{children}</AppQueryProvider>;
}
