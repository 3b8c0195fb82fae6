// What moderation lets the other domains use (its declared interface; see docs/architecture.md):
// the operator's role change.
export { setRole } from './roles.ts';
