import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { QueueResponse, QueueStatus } from '../../../../../contract/moderation.ts';
import { api } from '../../../lib/api.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export const QUEUE_PER_PAGE = 20;
/** How often the page on screen is read again while the tab is visible. */
export const QUEUE_REFRESH_MS = 20_000;

export function getQueue(status: QueueStatus, page: number, signal?: AbortSignal): Promise<QueueResponse> {
  return api.get<QueueResponse>('/api/moderation/queue', {
    query: { status, page, per_page: QUEUE_PER_PAGE },
    signal,
  });
}

export function queueQuery(status: QueueStatus, page: number) {
  return queryOptions({
    queryKey: queryKeys.moderationQueue(status, page),
    queryFn: ({ signal }) => getQueue(status, page, signal),
    // The page shown stays while the next one loads, so paging does not flash a spinner.
    placeholderData: keepPreviousData,
    // Reports arrive without a live message (they are not public): read the page again now and
    // then, and on coming back to the tab (see use-live-queue.ts for what the page does with it).
    refetchInterval: QUEUE_REFRESH_MS,
    refetchOnWindowFocus: true,
  });
}

/** One page of the moderation queue, most reported first. */
export function useQueue(status: QueueStatus, page: number) {
  return useQuery(queueQuery(status, page));
}
