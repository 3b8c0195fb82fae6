// What the other features and app/ use of the live stream: keeping it open while a screen shows
// live data, listening to it, reading through it, and (app/) applying it to the query cache.
export { readPageThroughLive, readThroughLive } from './read-through-live.ts';
export { useLiveStore } from './store.ts';
export { useLiveCache } from './use-live-cache.ts';
export { useLiveCatchUp } from './use-live-catch-up.ts';
export { useLiveEvents, useLiveStream } from './use-live-events.ts';
