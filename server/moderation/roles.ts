// Granting and revoking the moderator role (operators only: `npm run role`). A change is a
// RoleChanged event on the account's stream, so a replay keeps it; the moderators table is its
// projection.
import { findUserIdByUsername } from '../accounts/index.ts';
import { NotFound } from '../errors.ts';
import { roleChangeLock } from '../events/locks.ts';
import { writeTransaction, type EventStore } from '../events/store.ts';
import { streamIds, type Role } from '../events/types.ts';
import type { Database } from '../db/database.ts';

export type RoleChange = { username: string; role: Role; changed: boolean };

export async function setRole(
  services: { database: Database; store: EventStore },
  username: string,
  role: Role,
): Promise<RoleChange> {
  const { db } = services.database;
  return writeTransaction(db, async (tx) => {
    const { trx } = tx;
    const userId = await findUserIdByUsername(trx, username);
    if (userId === null) throw new NotFound(`No user is called "${username}"`);
    const stream = streamIds.account(userId);
    await tx.lock([roleChangeLock(userId)]);
    const current = await trx
      .selectFrom('moderators')
      .select('user_id')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const was: Role = current ? 'moderator' : 'member';
    if (was === role) return { username, role, changed: false };
    await services.store.append(
      tx,
      stream,
      'any',
      [{ type: 'RoleChanged', data: { user_id: userId, role } }],
      {
        metadata: { actor_id: null },
      },
    );
    return { username, role, changed: true };
  });
}
