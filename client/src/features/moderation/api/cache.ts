// How the cached queue changes with a moderator's own decisions, in one place. A decision answers
// the item as it now stands: it replaces the old one in the page on screen, so the card updates in
// place without reloading the queue (which would move it to another tab).
import type { QueryClient } from '@tanstack/react-query';
import type { QueueResponse } from '../../../../../contract/moderation.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { QueueItem } from '../reasons.ts';

const sameTarget = (a: QueueItem, b: QueueItem) =>
  a.target_type === b.target_type && a.target_id === b.target_id;

export function withQueueItem(page: QueueResponse, item: QueueItem): QueueResponse {
  return { ...page, items: page.items.map((old) => (sameTarget(old, item) ? item : old)) };
}

/** Replaces the decided item in every cached page of the queue that lists it (the others stay as they are). */
export function queueItemDecided(client: QueryClient, item: QueueItem): void {
  client.setQueriesData<QueueResponse>({ queryKey: queryKeys.moderationQueues }, (page) =>
    page?.items.some((old) => sameTarget(old, item)) ? withQueueItem(page, item) : page,
  );
}
