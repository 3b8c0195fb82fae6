// Changing a password and signing out everywhere. Each raises the user's token version, so every
// token issued before gets 401, and records an event on the account's stream, in the caller's
// transaction. The events name the user only: credentials stay in users (see users.ts).
import { Forbidden, Unauthorized } from '../errors.ts';
import { ACCOUNT_GONE } from '../events/personal.ts';
import type { EventStore, WriteTx } from '../events/store.ts';
import { streamIds, type EventMetadata, type NewEvent } from '../events/types.ts';
import { raiseTokenVersion, replacePassword } from './users.ts';

export const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';
export { ACCOUNT_GONE };

export type AccountCommand = { userId: number; metadata: EventMetadata };

/**
 * Stores `newHash` in place of `previousHash` (the hash the current password was checked against)
 * and answers the new token version. A password changed by another request since that check makes
 * the given current password wrong: 403, and nothing changes.
 */
export async function changePassword(
  tx: WriteTx,
  store: EventStore,
  command: AccountCommand & { previousHash: string; newHash: string },
): Promise<number> {
  const version = await replacePassword(tx.trx, command.userId, command.previousHash, command.newHash);
  if (version === null) throw new Forbidden(WRONG_CURRENT_PASSWORD);
  await record(tx, store, command, { type: 'PasswordChanged', data: { user_id: command.userId } });
  return version;
}

/** Ends every session of the user, the caller's own included. */
export async function signOutEverywhere(
  tx: WriteTx,
  store: EventStore,
  command: AccountCommand,
): Promise<void> {
  if ((await raiseTokenVersion(tx.trx, command.userId)) === null) throw new Unauthorized(ACCOUNT_GONE);
  await record(tx, store, command, { type: 'SignedOutEverywhere', data: { user_id: command.userId } });
}

async function record(tx: WriteTx, store: EventStore, command: AccountCommand, event: NewEvent) {
  await store.append(tx, streamIds.account(command.userId), 'any', [event], { metadata: command.metadata });
}
