// Deleting an account by username, for operators answering a deletion request (`npm run account --
// delete <username>`): the same deletion the account's owner makes from the settings page.
import { NotFound } from '../errors.ts';
import { writeTransaction } from '../events/store.ts';
import type { Services } from '../services.ts';
import { deleteAccount } from './deletion.ts';
import type { PersonalData } from './personal-data.ts';
import { findUserIdByUsername } from './users.ts';

export type DeletedAccount = { username: string; photos: number };

/** `parts`: every domain's part of a person's data (server/personal-data.ts). */
export async function deleteAccountByUsername(
  services: Services,
  username: string,
  parts: readonly PersonalData[],
): Promise<DeletedAccount> {
  const { db } = services.database;
  const deletion = await writeTransaction(db, async (tx) => {
    const userId = await findUserIdByUsername(tx.trx, username);
    if (userId === null) throw new NotFound(`No user is called "${username}"`);
    return deleteAccount(tx, services.store, { userId, metadata: { actor_id: null } }, parts);
  });
  await deletion.afterCommit(services);
  return { username, photos: deletion.removed.photos ?? 0 };
}
