// Deciders for a target's photos. Each runs in the caller's transaction after taking the target's
// photo lock, so uploads, primary switches, deletes and the worker's outcomes for one cat or
// bodega commit one at a time, in the order the log then replays them.
import { sql, type Kysely } from 'kysely';
import type { DB, PhotoRow } from '../db/schema.ts';
import { Conflict, Forbidden, NotFound } from '../errors.ts';
import type { EventStore } from '../events/store.ts';
import { requireTarget, type Target } from '../events/targets.ts';
import { streamIds, type EventMetadata } from '../events/types.ts';
import type { AuthUser } from '../plugins/auth.ts';
import type { ImageType } from './image-type.ts';
import { findPhoto } from './read.ts';

export async function lockTargetPhotos(trx: Kysely<DB>, target: Target): Promise<void> {
  const key = `photos-${target.type}-${target.id}`;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}

export type NewPhoto = {
  photoId: number;
  target: Target;
  uploadedBy: number;
  filename: string;
  originalPath: string;
  type: ImageType;
  caption: string;
  makePrimary: boolean;
};

/** Records an upload whose original is already stored. The caller holds the target's lock. */
export async function recordUpload(
  trx: Kysely<DB>,
  store: EventStore,
  photo: NewPhoto,
  metadata: EventMetadata,
): Promise<PhotoRow> {
  await store.append(
    trx,
    streamIds.photo(photo.photoId),
    0,
    [
      {
        type: 'PhotoUploaded',
        data: {
          photo_id: photo.photoId,
          target_type: photo.target.type,
          target_id: photo.target.id,
          uploaded_by: photo.uploadedBy,
          filename: photo.filename,
          original_path: photo.originalPath,
          mime_type: photo.type.mime,
          caption: photo.caption,
          make_primary: photo.makePrimary,
        },
      },
    ],
    { metadata },
  );
  return (await findPhoto(trx, photo.photoId))!;
}

/** Loads the target and its photo for a change by `user`: 404 if either is missing, 403 if not theirs. */
async function photoToManage(
  trx: Kysely<DB>,
  target: Target,
  photoId: number,
  user: AuthUser,
): Promise<PhotoRow> {
  await lockTargetPhotos(trx, target);
  const owner = await requireTarget(trx, target, { keyShare: true });
  const photo = await findPhoto(trx, photoId);
  if (!photo || photo.target_type !== target.type || Number(photo.target_id) !== target.id)
    throw new NotFound('Photo not found');
  const uploader = photo.uploaded_by === null ? null : Number(photo.uploaded_by);
  if (user.id !== uploader && user.id !== owner.created_by)
    throw new Forbidden(
      `Only the person who uploaded this photo or the ${target.type}'s creator can change it`,
    );
  return photo;
}

export async function setPrimaryPhoto(
  trx: Kysely<DB>,
  store: EventStore,
  target: Target,
  photoId: number,
  user: AuthUser,
  metadata: EventMetadata,
): Promise<PhotoRow> {
  const photo = await photoToManage(trx, target, photoId, user);
  if (photo.is_primary) return photo;
  if (photo.status === 'failed')
    throw new Conflict(
      'This photo could not be processed, so it cannot be the primary photo',
      'photo_failed',
    );
  await store.append(
    trx,
    streamIds.photo(photoId),
    'any',
    [
      {
        type: 'PhotoPrimarySet',
        data: { photo_id: photoId, target_type: target.type, target_id: target.id },
      },
    ],
    { metadata },
  );
  return (await findPhoto(trx, photoId))!;
}

/**
 * Returns the deleted photo so its files can be removed once the transaction has committed. The
 * photos job dispatched from PhotoDeleted removes them too, should this process stop before that.
 */
export async function deletePhoto(
  trx: Kysely<DB>,
  store: EventStore,
  target: Target,
  photoId: number,
  user: AuthUser,
  metadata: EventMetadata,
): Promise<PhotoRow> {
  const photo = await photoToManage(trx, target, photoId, user);
  await appendPhotoDeleted(trx, store, target, photoId, metadata);
  return photo;
}

function appendPhotoDeleted(
  trx: Kysely<DB>,
  store: EventStore,
  target: Target,
  photoId: number,
  metadata: EventMetadata,
) {
  return store.append(
    trx,
    streamIds.photo(photoId),
    'any',
    [{ type: 'PhotoDeleted', data: { photo_id: photoId, target_type: target.type, target_id: target.id } }],
    { metadata },
  );
}

/**
 * Deletes every photo of a cat or bodega that is being deleted, in the caller's transaction and
 * before the target's own deletion event, so each photo leaves the log the way a single deletion
 * does and its PhotoDeleted dispatches the photos job that removes its files. The caller holds the
 * target's photo lock, taken before any row lock so that uploads committed meanwhile come first in
 * the log's transaction order too.
 */
export async function deletePhotosOfTarget(
  trx: Kysely<DB>,
  store: EventStore,
  target: Target,
  metadata: EventMetadata,
): Promise<number[]> {
  const rows = await trx
    .selectFrom('photos')
    .select('id')
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id)
    .orderBy('id')
    .execute();
  const ids = rows.map((r) => Number(r.id));
  for (const photoId of ids) await appendPhotoDeleted(trx, store, target, photoId, metadata);
  return ids;
}
