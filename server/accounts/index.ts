// What the accounts domain lets the other domains use (its declared interface; see
// docs/architecture.md): finding an account by username, and the operator's deletion and export.
export { deleteAccountByUsername } from './operator.ts';
export { exportAccountByUsername } from './export.ts';
export { findUserIdByUsername } from './users.ts';
