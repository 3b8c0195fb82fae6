// The keys of every cached server read, in one place: the screens read through them and the live
// stream's cache updates (features/live/cache-updates.ts) find what to change by them.
import type { TargetType } from './catalogue.ts';

export const queryKeys = {
  cats: ['cat'] as const,
  cat: (id: number) => ['cat', id] as const,
  bodegas: ['bodega'] as const,
  bodega: (id: number) => ['bodega', id] as const,
  item: (type: TargetType, id: number) => [type, id] as const,
  allReviews: ['reviews'] as const,
  /** An edit screen's own snapshot of the item (outside `cats`/`bodegas`: the stream leaves it alone). */
  editable: (type: TargetType, id: number) => ['edit', type, id] as const,
  reviews: (type: TargetType, id: number) => ['reviews', type, id] as const,
  searches: ['search'] as const,
  search: (request: unknown) => ['search', request] as const,
  filterOptions: ['search-filter-options'] as const,
  saved: (kind: 'cats' | 'bodegas') => ['saved', kind] as const,
  recentlyViewed: ['recently-viewed'] as const,
  moderationQueues: ['moderation-queue'] as const,
  moderationQueue: (status: string, page: number) => ['moderation-queue', status, page] as const,
};

/** The keys of the writes a screen follows while they run (useMutationState), beside the reads'. */
export const mutationKeys = {
  setSaved: ['set-saved'] as const,
};
