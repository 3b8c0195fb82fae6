// The photos read model. Exactly one photo per target is primary whenever the target has a usable
// one: the first upload becomes primary, a switch demotes the old one, and when the primary is
// deleted or fails the oldest remaining ready-or-processing photo takes its place.
import type { Kysely } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import type { Projection } from '../events/projection.ts';
import { applyVisibility, removeDeletedTargetRows, VISIBILITY_EVENTS } from '../events/targets.ts';
import { assertNever, type RecordedEvent } from '../events/types.ts';

const HANDLES = [
  'PhotoUploaded',
  'PhotoProcessed',
  'PhotoFailed',
  'PhotoPrimarySet',
  'PhotoDeleted',
  'CatDeleted',
  'BodegaDeleted',
  ...VISIBILITY_EVENTS,
] as const;
type Handled = (typeof HANDLES)[number];

function ofTarget(trx: Kysely<DB>, type: TargetType, id: number) {
  return trx.updateTable('photos').where('target_type', '=', type).where('target_id', '=', id);
}

async function hasUsablePrimary(trx: Kysely<DB>, type: TargetType, id: number): Promise<boolean> {
  const row = await trx
    .selectFrom('photos')
    .select('id')
    .where('target_type', '=', type)
    .where('target_id', '=', id)
    .where('is_primary', '=', true)
    .where('status', '!=', 'failed')
    .executeTakeFirst();
  return row !== undefined;
}

async function demotePrimary(trx: Kysely<DB>, type: TargetType, id: number): Promise<void> {
  await ofTarget(trx, type, id).set({ is_primary: false }).where('is_primary', '=', true).execute();
}

/** Makes the oldest ready-or-processing photo primary; the caller has removed the old primary. */
async function promoteOldest(trx: Kysely<DB>, type: TargetType, id: number): Promise<void> {
  const next = await trx
    .selectFrom('photos')
    .select('id')
    .where('target_type', '=', type)
    .where('target_id', '=', id)
    .where('status', 'in', ['ready', 'processing'])
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (next) await trx.updateTable('photos').set({ is_primary: true }).where('id', '=', next.id).execute();
}

async function photoUploaded(trx: Kysely<DB>, event: RecordedEvent<'PhotoUploaded'>): Promise<void> {
  const d = event.data;
  const primary = d.make_primary || !(await hasUsablePrimary(trx, d.target_type, d.target_id));
  if (primary) await demotePrimary(trx, d.target_type, d.target_id);
  await trx
    .insertInto('photos')
    .values({
      id: d.photo_id,
      target_type: d.target_type,
      target_id: d.target_id,
      uploaded_by: d.uploaded_by,
      filename: d.filename,
      original_path: d.original_path,
      mime_type: d.mime_type,
      caption: d.caption,
      status: 'processing',
      is_primary: primary,
      created_at: event.recordedAt,
    })
    .execute();
}

async function photoFailed(trx: Kysely<DB>, event: RecordedEvent<'PhotoFailed'>): Promise<void> {
  const d = event.data;
  const before = await trx
    .selectFrom('photos')
    .select('is_primary')
    .where('id', '=', d.photo_id)
    .executeTakeFirst();
  if (!before) return;
  await trx
    .updateTable('photos')
    .set({ status: 'failed', is_primary: false })
    .where('id', '=', d.photo_id)
    .execute();
  if (before.is_primary) await promoteOldest(trx, d.target_type, d.target_id);
}

async function photoDeleted(trx: Kysely<DB>, event: RecordedEvent<'PhotoDeleted'>): Promise<void> {
  const d = event.data;
  const removed = await trx
    .deleteFrom('photos')
    .where('id', '=', d.photo_id)
    .returning('is_primary')
    .executeTakeFirst();
  if (removed?.is_primary) await promoteOldest(trx, d.target_type, d.target_id);
}

export const photosProjection: Projection = {
  name: 'photos',
  tables: ['photos'],
  handles: HANDLES,
  async apply(trx, e) {
    const event = e as RecordedEvent<Handled>;
    switch (event.type) {
      case 'PhotoUploaded':
        return photoUploaded(trx, event);
      case 'PhotoProcessed': {
        const d = event.data;
        await trx
          .updateTable('photos')
          .set({
            status: 'ready',
            width: d.width,
            height: d.height,
            thumb_width: d.thumb_width,
            thumb_height: d.thumb_height,
          })
          .where('id', '=', d.photo_id)
          .execute();
        return;
      }
      case 'PhotoFailed':
        return photoFailed(trx, event);
      case 'PhotoPrimarySet': {
        const d = event.data;
        const photo = await trx
          .selectFrom('photos')
          .select('id')
          .where('id', '=', d.photo_id)
          .executeTakeFirst();
        if (!photo) return;
        await demotePrimary(trx, d.target_type, d.target_id);
        await trx.updateTable('photos').set({ is_primary: true }).where('id', '=', d.photo_id).execute();
        return;
      }
      case 'PhotoDeleted':
        return photoDeleted(trx, event);
      case 'CatDeleted':
      case 'BodegaDeleted':
        return removeDeletedTargetRows(trx, 'photos', event);
      case 'ContentHidden':
      case 'ContentRestored':
        return applyVisibility(trx, 'photos', event);
      default:
        assertNever(event);
    }
  },
};
