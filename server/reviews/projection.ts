// The reviews read model: one row per live review. A deleted cat or bodega takes its reviews with
// it (a bodega's cats go through their own CatDeleted events, appended before BodegaDeleted).
import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { insertRows, plannedApply, type BatchPlan, type Projection } from '../events/projection.ts';
import { applyVisibility, removeDeletedTargetRows, VISIBILITY_EVENTS } from '../events/targets.ts';
import { assertNever, type RecordedEvent } from '../events/types.ts';

const HANDLES = [
  'ReviewPosted',
  'ReviewDeleted',
  'CatDeleted',
  'BodegaDeleted',
  'AccountDeleted',
  ...VISIBILITY_EVENTS,
] as const;
type Handled = (typeof HANDLES)[number];

function reviewRow(event: RecordedEvent<'ReviewPosted'>): Insertable<DB['reviews']> {
  const d = event.data;
  return {
    id: d.review_id,
    target_type: d.target_type,
    target_id: d.target_id,
    user_id: d.user_id,
    rating: d.rating,
    comment: d.comment,
    created_at: event.recordedAt,
  };
}

const REVIEW_COLUMNS = {
  id: 'bigint',
  target_type: 'text',
  target_id: 'bigint',
  user_id: 'bigint',
  rating: 'smallint',
  comment: 'text',
  created_at: 'timestamptz',
};

/** Runs of posted reviews become multi-row inserts; deletions are applied in order between them. */
const reviewsBatch: BatchPlan<Insertable<DB['reviews']>[]> = {
  start: () => [],
  fold(rows, event) {
    if (event.type !== 'ReviewPosted') return false;
    rows.push(reviewRow(event as RecordedEvent<'ReviewPosted'>));
    return true;
  },
  async flush(trx, rows) {
    await insertRows(trx, 'reviews', REVIEW_COLUMNS, rows);
  },
};

/** ReviewDeleted and the deletions of targets, applied one at a time between posted runs. */
async function applyUnfolded(trx: Kysely<DB>, e: RecordedEvent): Promise<void> {
  const event = e as RecordedEvent<Exclude<Handled, 'ReviewPosted'>>;
  switch (event.type) {
    case 'ReviewDeleted':
      await trx.deleteFrom('reviews').where('id', '=', event.data.review_id).execute();
      return;
    case 'CatDeleted':
    case 'BodegaDeleted':
      return removeDeletedTargetRows(trx, 'reviews', event);
    case 'AccountDeleted':
      // Its reviews were deleted one by one before it (so ratings follow); none may outlive it.
      await trx.deleteFrom('reviews').where('user_id', '=', event.data.user_id).execute();
      return;
    case 'ContentHidden':
    case 'ContentRestored':
      return applyVisibility(trx, 'reviews', event);
    default:
      assertNever(event);
  }
}

export const reviewsProjection: Projection = {
  name: 'reviews',
  tables: ['reviews'],
  handles: HANDLES,
  ...plannedApply(reviewsBatch, applyUnfolded),
};
