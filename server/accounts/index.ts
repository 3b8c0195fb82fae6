// What the accounts domain lets the other domains use (its declared interface; see
// docs/architecture.md): finding an account by username, the operator's deletion and export, and
// what a domain that keeps something about a person gives them (PersonalData).
export { deleteAccountByUsername } from './operator.ts';
export { exportAccountByUsername } from './export.ts';
export { findUserIdByUsername } from './users.ts';
export type { Erasure, Erased, PersonalData } from './personal-data.ts';
