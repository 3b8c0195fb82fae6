import { useEffect, useRef } from 'react';
import { useLiveStore } from './store.ts';
import type { LiveListener } from './types.ts';

/** Calls `listener` with every live message while the component is mounted. */
export function useLiveEvents(listener: LiveListener, enabled = true): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  const subscribe = useLiveStore((s) => s.subscribe);
  useEffect(() => {
    if (!enabled) return;
    return subscribe((message) => latest.current(message));
  }, [subscribe, enabled]);
}

const ignore: LiveListener = () => {};

/**
 * Keeps the live stream open while the component is mounted, for a screen whose data is kept
 * current in the query cache (see cache-updates.ts) rather than by a listener of its own.
 */
export function useLiveStream(enabled = true): void {
  useLiveEvents(ignore, enabled);
}
