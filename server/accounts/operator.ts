// Deleting an account by username, for operators answering a deletion request (`npm run account --
// delete <username>`): the same deletion the account's owner makes from the settings page.
import { NotFound } from '../errors.ts';
import { writeTransaction } from '../events/store.ts';
import { deletePhotoObjects } from '../photos/objects.ts';
import type { Services } from '../services.ts';
import { deleteAccount } from './deletion.ts';
import { findUserIdByUsername } from './users.ts';

export type DeletedAccount = { username: string; photos: number };

export async function deleteAccountByUsername(
  services: Pick<Services, 'database' | 'store' | 'photoStorage' | 'logger'>,
  username: string,
): Promise<DeletedAccount> {
  const { db } = services.database;
  const photos = await writeTransaction(db, async (tx) => {
    const userId = await findUserIdByUsername(tx.trx, username);
    if (userId === null) throw new NotFound(`No user is called "${username}"`);
    return deleteAccount(tx, services.store, { userId, metadata: { actor_id: null } });
  });
  await Promise.all(photos.map((photo) => deletePhotoObjects(services.photoStorage, photo, services.logger)));
  return { username, photos: photos.length };
}
