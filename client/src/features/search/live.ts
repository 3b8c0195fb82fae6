// What the live stream (features/live) needs of the search: the shape of cached results, which its
// cache updates change in place.
export type { SearchResults } from './model/results.ts';
