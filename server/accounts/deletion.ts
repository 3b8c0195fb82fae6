// Deleting an account, in the caller's transaction: the orchestrator of what every domain keeps
// about the person, each part given by its domain as a PersonalData (accounts/personal-data.ts)
// and listed once in server/personal-data.ts. Each part goes the way its domain says: the
// person's reviews and photos leave the log the way single deletions do (so ratings are
// recomputed and photo files removed by the jobs those events dispatch), their recently viewed
// items and upload counts, which are not events, are deleted. AccountDeleted then drives every
// projection that keeps the person's id (saves, reports, the catalogue's created_by). Stored
// idempotent answers and sign-in counts are deleted here; the users row goes, and so does the data
// key every personal field they wrote was sealed under (server/events/personal.ts).
import { Unauthorized } from '../errors.ts';
import { accountLock } from '../events/locks.ts';
import { ACCOUNT_GONE } from '../events/personal.ts';
import type { EventStore, WriteTx } from '../events/store.ts';
import { streamIds } from '../events/types.ts';
import { forgetIdempotentAnswers } from '../http/idempotency.ts';
import type { Services } from '../services.ts';
import { forgetSignInsOf } from './login-limits.ts';
import type { AccountCommand } from './commands.ts';
import type { Erased, PersonalData } from './personal-data.ts';

export const WRONG_PASSWORD = 'Password is incorrect';

/** What a deletion did: how many items of each kind went, and what is left for after the commit. */
export type AccountDeletion = {
  removed: Record<string, number>;
  /** Removes what lives outside the database (photo files); the caller runs it once committed. */
  afterCommit(services: Services): Promise<void>;
};

export async function deleteAccount(
  tx: WriteTx,
  store: EventStore,
  command: AccountCommand,
  parts: readonly PersonalData[],
): Promise<AccountDeletion> {
  const { trx } = tx;
  const { userId, metadata } = command;
  // The person's account lock first, which their uploads take before the photo locks that the
  // photo deletions take too (accountLock): an upload in flight commits before this goes on, and
  // its photo is deleted with the rest; one that comes later waits, then is refused (401). Every
  // write by the person holds that lock too (shared), from its start (runCommand). Then the
  // account row: any write that seals under the person's key holds it (key share) and so finishes
  // before this goes on, or starts after and finds no account (401); a view records itself
  // holding it too (recordView).
  await tx.lock([accountLock(userId, 'exclusive')]);
  const account = await trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  if (!account) throw new Unauthorized(ACCOUNT_GONE);

  // The parts in their list's order: the reviews' deletions lock no photos, the photos' take the
  // photo locks of all their targets at once (see "Locks and their order").
  const removed: Record<string, number> = {};
  const afterCommit: NonNullable<Erased['afterCommit']>[] = [];
  for (const part of parts) {
    const erased = await part.erase({ tx, store, userId, metadata });
    Object.assign(removed, erased?.removed);
    if (erased?.afterCommit) afterCommit.push(erased.afterCommit);
  }

  await store.append(
    tx,
    streamIds.account(userId),
    'any',
    [{ type: 'AccountDeleted', data: { user_id: userId } }],
    {
      metadata,
    },
  );
  await forgetIdempotentAnswers(trx, userId);
  await forgetSignInsOf(trx, userId);
  // Without its key, everything the person wrote into the log can never be read again.
  await trx.deleteFrom('user_keys').where('user_id', '=', userId).execute();
  await trx.deleteFrom('users').where('id', '=', userId).execute();
  return {
    removed,
    async afterCommit(services) {
      for (const step of afterCommit) await step(services);
    },
  };
}
