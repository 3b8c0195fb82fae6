// A decision answers the item as it now stands: it replaces the old one in the page on screen, so
// the card updates in place without reloading the queue (which would move it to another tab).
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { QueueResponse } from '../../../../contract/moderation.ts';
import type { QueueItem } from './reasons.ts';

export function withQueueItem(page: QueueResponse, item: QueueItem): QueueResponse {
  return {
    ...page,
    items: page.items.map((old) =>
      old.target_type === item.target_type && old.target_id === item.target_id ? item : old,
    ),
  };
}

export function replaceQueueItem(client: QueryClient, key: QueryKey, item: QueueItem): void {
  client.setQueryData<QueueResponse>(key, (page) => (page ? withQueueItem(page, item) : page));
}
