// The query cache for component tests: a fresh one per render (not the app's), and change notices delivered at once
// (the app batches them to the next tick), so a live message's effect shows within its act().
import { MutationObserver, notifyManager, type UseMutationOptions } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { QueryProvider as AppQueryProvider } from '../../client/src/app/query-provider.tsx';
import { createQueryClient } from '../../client/src/lib/query-client.ts';

notifyManager.setScheduler((callback) => callback());

export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient);
  return <AppQueryProvider client={client}>{children}</AppQueryProvider>;
}

/** Runs a write's mutation as a screen does (its cache updates included), in a fresh cache; answers what it answers. */
export function runMutation<Data, Variables, Context>(
  options: UseMutationOptions<Data, Error, Variables, Context>,
  variables: Variables,
): Promise<Data> {
  return new MutationObserver(createQueryClient(), options).mutate(variables);
}
