import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { applyLiveMessage } from './cache-updates.ts';
import { useLiveStore } from './store.ts';

/**
 * Applies every live message to the query cache, once, while the stream is open. It does not open
 * the stream itself: the screens that show live data keep it open (useLiveStream).
 */
export function useLiveCache(client: QueryClient): void {
  const subscribe = useLiveStore((s) => s.subscribe);
  useEffect(
    () => subscribe((message) => applyLiveMessage(client, message), { passive: true }),
    [subscribe, client],
  );
}
