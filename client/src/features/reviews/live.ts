// What the live stream (features/live) applies to the reviews' cache.
export { addReview } from './api/cache.ts';
