// A read's answer may predate live messages heard while it was on its way (the server answered
// before the change, the message came first): when the cache takes that answer, those changes
// would be lost. These wrappers apply the messages heard during the read to its answer again,
// through the same cache updates, in a scratch cache holding only that answer.
import { QueryClient, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { applyLiveMessage } from './cache-updates.ts';
import { useLiveStore } from './store.ts';
import type { LiveMessage } from './types.ts';

async function withHeard<T>(
  read: () => Promise<T>,
  replay: (data: T, heard: LiveMessage[]) => T,
): Promise<T> {
  const heard: LiveMessage[] = [];
  // Passive: listening here never opens the connection; a screen that shows live data does.
  const stop = useLiveStore
    .getState()
    .subscribe((message) => void (message.type !== 'reset' && heard.push(message)), { passive: true });
  try {
    const data = await read();
    return heard.length > 0 ? replay(data, heard) : data;
  } finally {
    stop();
  }
}

function replayed<D>(queryKey: QueryKey, data: D, heard: LiveMessage[]): D {
  const scratch = new QueryClient();
  scratch.setQueryData(queryKey, data);
  for (const message of heard) applyLiveMessage(scratch, message);
  return scratch.getQueryData<D>(queryKey) as D;
}

/** A query's read, with the live changes heard while it ran applied to its answer. */
export function readThroughLive<T>(queryKey: QueryKey, read: () => Promise<T>): Promise<T> {
  return withHeard(read, (data, heard) => replayed(queryKey, data, heard));
}

/** One page of an infinite query's read, likewise. */
export function readPageThroughLive<Page, Param>(
  queryKey: QueryKey,
  pageParam: Param,
  read: () => Promise<Page>,
): Promise<Page> {
  return withHeard(read, (page, heard) => {
    const data: InfiniteData<Page, Param> = { pages: [page], pageParams: [pageParam] };
    return replayed(queryKey, data, heard).pages[0] ?? page;
  });
}
