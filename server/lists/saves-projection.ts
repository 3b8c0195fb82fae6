// The saves read model: one row per (user, saved cat or bodega), rebuilt from ItemSaved and
// ItemUnsaved. A deleted cat or bodega takes its saves with it, and so does a deleted account.
import type { Projection } from '../events/projection.ts';
import { removeDeletedTargetRows } from '../events/targets.ts';
import { assertNever, type RecordedEvent } from '../events/types.ts';

const HANDLES = ['ItemSaved', 'ItemUnsaved', 'CatDeleted', 'BodegaDeleted', 'AccountDeleted'] as const;
type Handled = (typeof HANDLES)[number];

export const savesProjection: Projection = {
  name: 'saves',
  tables: ['saves'],
  handles: HANDLES,
  async apply(trx, e) {
    const event = e as RecordedEvent<Handled>;
    switch (event.type) {
      case 'ItemSaved': {
        const { user_id, target_type, target_id } = event.data;
        // Saving what is already saved keeps the first saved_at: the list order does not jump.
        await trx
          .insertInto('saves')
          .values({ user_id, target_type, target_id, saved_at: event.recordedAt })
          .onConflict((oc) => oc.columns(['user_id', 'target_type', 'target_id']).doNothing())
          .execute();
        return;
      }
      case 'ItemUnsaved': {
        const { user_id, target_type, target_id } = event.data;
        await trx
          .deleteFrom('saves')
          .where('user_id', '=', user_id)
          .where('target_type', '=', target_type)
          .where('target_id', '=', target_id)
          .execute();
        return;
      }
      case 'CatDeleted':
      case 'BodegaDeleted':
        return removeDeletedTargetRows(trx, 'saves', event);
      case 'AccountDeleted':
        await trx.deleteFrom('saves').where('user_id', '=', event.data.user_id).execute();
        return;
      default:
        assertNever(event);
    }
  },
};
