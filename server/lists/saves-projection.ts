// The saves read model: one row per (user, saved cat or bodega), rebuilt from ItemSaved and
// ItemUnsaved. A deleted cat or bodega takes its saves, and every reader's view of it in
// recently_viewed (not event-sourced, so not rebuilt by replay, but kept free of deleted items), with it.
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { Projection } from '../events/projection.ts';
import { removeDeletedTargetRows } from '../events/target-rows.ts';
import { assertNever, type RecordedEvent } from '../events/types.ts';

const HANDLES = ['ItemSaved', 'ItemUnsaved', 'CatDeleted', 'BodegaDeleted'] as const;
type Handled = (typeof HANDLES)[number];

/** The event's effect on `saves`. */
async function applyToSaves(trx: Kysely<DB>, event: RecordedEvent<Handled>): Promise<void> {
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
    default:
      assertNever(event);
  }
}

export const savesProjection: Projection = {
  name: 'saves',
  tables: ['saves'],
  handles: HANDLES,
  async apply(trx, e) {
    const event = e as RecordedEvent<Handled>;
    if (event.type === 'CatDeleted' || event.type === 'BodegaDeleted')
      await removeDeletedTargetRows(trx, 'recently_viewed', event);
    await applyToSaves(trx, event);
  },
  // Replay rebuilds `saves` only, in its shadow schema: recently_viewed is not rebuilt from the log,
  // and the views of a deleted item went when the deletion was first applied.
  async applyBatch(trx, events) {
    for (const event of events) await applyToSaves(trx, event as RecordedEvent<Handled>);
  },
};
