// A person's saves and recently viewed items, for their account's deletion and export
// (accounts/personal-data.ts).
import type { Erasure } from '../accounts/index.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { clearRecentlyViewed } from './recently-viewed.ts';

export const listsPersonalData = {
  /** Views are not events and go here; the saves projection drops the saves on AccountDeleted. */
  async erase({ tx, userId }: Erasure) {
    await clearRecentlyViewed(tx.trx, userId);
  },

  async export(trx: Kysely<DB>, userId: number) {
    const saves = await trx
      .selectFrom('saves')
      .select(['target_type', 'target_id', 'saved_at'])
      .where('user_id', '=', userId)
      .orderBy('saved_at')
      .execute();
    const viewed = await trx
      .selectFrom('recently_viewed')
      .select(['target_type', 'target_id', 'viewed_at'])
      .where('user_id', '=', userId)
      .orderBy('viewed_at', 'desc')
      .execute();
    return {
      saves: saves.map((s) => ({
        target_type: s.target_type,
        target_id: Number(s.target_id),
        saved_at: new Date(s.saved_at).toISOString(),
      })),
      recently_viewed: viewed.map((v) => ({
        target_type: v.target_type,
        target_id: Number(v.target_id),
        viewed_at: new Date(v.viewed_at).toISOString(),
      })),
    };
  },
};
