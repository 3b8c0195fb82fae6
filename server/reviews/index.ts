// What the reviews domain lets the other domains use (its declared interface; see
// docs/architecture.md): the one builder of the Review shape.
export { toReview } from './read.ts';
