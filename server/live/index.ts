// What the live stream lets the other domains use (its declared interface; see
// docs/architecture.md): its figures, for the metrics.
export { liveStats } from './stats.ts';
