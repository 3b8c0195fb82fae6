// The queue a moderator reads, kept fresh without moving cards under them. The open page is read
// again every QUEUE_REFRESH_MS while the tab is visible, and when the window regains focus. A fresh
// read with the same items in the same order (new counts, a decision's answer) replaces the page
// on screen at once; one that adds, drops or reorders items waits behind a notice until the
// moderator asks for it.
import { useState } from 'react';
import type { QueueResponse, QueueStatus } from '../../../../contract/moderation.ts';
import { useQueue } from './api/get-queue.ts';

type Shown = { view: string; data: QueueResponse };

const keyOf = (item: QueueResponse['items'][number]) => `${item.target_type}-${item.target_id}`;

/** How a fresh read of the page differs from the one on screen: items new to it, items gone. */
export function queueChange(shown: QueueResponse, fresh: QueueResponse): { added: number; removed: number } {
  const before = new Set(shown.items.map(keyOf));
  const after = new Set(fresh.items.map(keyOf));
  return {
    added: fresh.items.filter((item) => !before.has(keyOf(item))).length,
    removed: shown.items.filter((item) => !after.has(keyOf(item))).length,
  };
}

/** Whether the fresh read can replace the page on screen without the moderator asking. */
export function adoptsQuietly(shown: QueueResponse, fresh: QueueResponse): boolean {
  if (shown.items.length === 0) return true;
  return (
    shown.items.length === fresh.items.length &&
    shown.items.every((item, i) => keyOf(item) === keyOf(fresh.items[i]!)) &&
    shown.pagination.total === fresh.pagination.total
  );
}

/** The words of the notice for a change the moderator has not yet asked to see. */
export function changeNotice({ added }: { added: number }): string {
  if (added === 0) return 'The queue has changed.';
  return added === 1 ? '1 new item in the queue.' : `${added} new items in the queue.`;
}

export function useLiveQueue(status: QueueStatus, page: number) {
  const query = useQueue(status, page);
  const view = `${status}:${page}`;
  const fresh = query.isPlaceholderData ? undefined : query.data;
  const [shown, setShown] = useState<Shown | null>(null);

  let current = shown;
  if (fresh && (shown?.view !== view || (shown.data !== fresh && adoptsQuietly(shown.data, fresh)))) {
    // Adjusted while rendering (React's pattern for state that follows props): no extra paint of
    // the old page.
    current = { view, data: fresh };
    setShown(current);
  }

  const onScreen = current?.view === view ? current.data : query.data;
  const waiting = fresh && onScreen && onScreen !== fresh ? fresh : null;
  return {
    query,
    data: onScreen,
    /** The notice's words while a fresh read waits, else null. */
    notice: waiting && onScreen ? changeNotice(queueChange(onScreen, waiting)) : null,
    showLatest: () => {
      if (waiting) setShown({ view, data: waiting });
    },
  };
}
