// The photo workflows: each loads what decidePhoto (photo.ts) decides on and appends what it
// decided, in the caller's transaction under the target's photo lock (targetPhotosLock), so
// uploads, primary switches, deletes and the worker's outcomes for one cat or bodega commit one at
// a time, in the order the log then replays them.
import type { Kysely } from 'kysely';
import type { DB, PhotoRow } from '../db/schema.ts';
import { targetPhotosLock } from '../events/locks.ts';
import { nextId, type EventStore, type Write, type WriteTx } from '../events/store.ts';
import { requireShownTarget, requireTarget, type Target } from '../events/targets.ts';
import { streamIds, type EventMetadata, type Role } from '../events/types.ts';
import { deleteQuietly, newPhotoFilename, originalKey } from './objects.ts';
import { decidePhoto, photoDeleted, type PhotoCommand, type PhotoState } from './photo.ts';
import { checkUploadQuota, claimUpload, quotaLocks, type UploadQuota } from './quota.ts';
import { findPhoto } from './read.ts';
import type { Services } from '../services.ts';
import type { ReceivedPhoto } from './upload.ts';

/** Who uploads which received file to which cat or bodega. */
export type Upload = {
  target: Target;
  uploader: { id: number; role: Role };
  file: ReceivedPhoto;
  metadata: EventMetadata;
};

/**
 * Refuses an upload before a byte of its file is read: when there is nothing to attach it to (for
 * this uploader: a target moderation hid is missing to all but its creator and moderators), or
 * when the uploader's quota is full, but for a retry with an Idempotency-Key, which may be answered
 * from its first result whatever the quota. The upload's transaction decides (uploadPhoto).
 */
export async function admitUpload(
  db: Kysely<DB>,
  quota: UploadQuota,
  { target, uploader }: Pick<Upload, 'target' | 'uploader'>,
  retry: boolean,
): Promise<void> {
  await requireShownTarget(db, target, uploader);
  if (!retry) await checkUploadQuota(db, quota, uploader.id);
}

/**
 * Records an upload: counts it against the quota, keeps the received file as the photo's original
 * under a new key, and appends PhotoUploaded. The uploader's account lock comes first (runCommand's
 * account hold), in the order an account deletion takes them (see accountLock). An Idempotency-Key
 * retry must repeat the same image, caption and choice.
 */
export function uploadPhoto(
  services: Pick<Services, 'store' | 'photoStorage' | 'config' | 'logger'>,
  upload: Upload,
): Write<PhotoRow> {
  const { store, photoStorage, logger } = services;
  const quota = services.config.uploads;
  const { target, uploader, file } = upload;
  return {
    locks: [...quotaLocks(quota, uploader.id), targetPhotosLock(target)],
    fingerprint: { photo_sha256: file.sha256, caption: file.caption, is_primary: file.makePrimary },
    async run(tx) {
      const { trx } = tx;
      const owner = await requireTarget(trx, target, { keyShare: true });
      await claimUpload(trx, quota, uploader.id);
      const photoId = await nextId(trx, 'photo_ids');
      const filename = newPhotoFilename();
      const originalPath = originalKey(filename, file.type.extension);
      // Kept before the photo is recorded, so the photos job always finds it; should the
      // transaction roll back (or the target be gone), it would be nobody's.
      tx.onRollback(() => deleteQuietly(photoStorage, originalPath, logger));
      await file.staged.keep(originalPath);
      const photo = {
        photoId,
        uploadedBy: uploader.id,
        uploaderRole: uploader.role,
        filename,
        originalPath,
        type: file.type,
        caption: file.caption,
        makePrimary: file.makePrimary,
      };
      const events = decidePhoto({ type: 'UploadPhoto', photo }, { target, owner, photo: null });
      await store.append(tx, streamIds.photo(photoId), 0, events, { metadata: upload.metadata });
      return (await findPhoto(trx, photoId))!;
    },
  };
}

/** What a change of one of the target's photos decides on, read under its photo lock. */
async function loadPhotoState(trx: Kysely<DB>, target: Target, photoId: number): Promise<PhotoState> {
  const owner = await requireTarget(trx, target, { keyShare: true });
  return { target, owner, photo: (await findPhoto(trx, photoId)) ?? null };
}

/** Which photo of which target a reader changes. */
export type PhotoChange = { target: Target; photoId: number; actorId: number };

/** A change of the primary photo also depends on the reader's role (see decidePhoto). */
export type PrimaryChange = PhotoChange & { actorRole: Role };

/**
 * Decides a reader's change of one of the target's photos and appends what was decided, under the
 * target's photo lock. Answers the photo as it was, and whether anything changed.
 */
async function changePhoto(
  tx: WriteTx,
  store: EventStore,
  command: Extract<PhotoCommand, { type: 'SetPrimaryPhoto' | 'DeletePhoto' }>,
  target: Target,
  metadata: EventMetadata,
): Promise<{ before: PhotoRow; changed: boolean }> {
  const { photoId } = command;
  const state = await loadPhotoState(tx.trx, target, photoId);
  const events = decidePhoto(command, state);
  if (events.length > 0) await store.append(tx, streamIds.photo(photoId), 'any', events, { metadata });
  return { before: state.photo!, changed: events.length > 0 };
}

export function setPrimaryPhoto(
  store: EventStore,
  change: PrimaryChange,
  metadata: EventMetadata,
): Write<PhotoRow> {
  const { photoId, actorId, actorRole } = change;
  const command = { type: 'SetPrimaryPhoto', photoId, actorId, actorRole } as const;
  return {
    locks: [targetPhotosLock(change.target)],
    async run(tx) {
      const { before, changed } = await changePhoto(tx, store, command, change.target, metadata);
      return changed ? (await findPhoto(tx.trx, change.photoId))! : before;
    },
  };
}

/**
 * Answers the deleted photo so its objects can be removed once the transaction has committed. The
 * photos job dispatched from PhotoDeleted removes them too, should this process stop before that.
 */
export function deletePhoto(
  store: EventStore,
  change: PhotoChange,
  metadata: EventMetadata,
): Write<PhotoRow> {
  const command = { type: 'DeletePhoto', photoId: change.photoId, actorId: change.actorId } as const;
  return {
    locks: [targetPhotosLock(change.target)],
    run: async (tx) => (await changePhoto(tx, store, command, change.target, metadata)).before,
  };
}

/**
 * Deletes every photo of a cat or bodega that is being deleted, in the caller's transaction and
 * before the target's own deletion event, so each photo leaves the log the way a single deletion
 * does and its PhotoDeleted dispatches the photos job that removes its files. The caller holds the
 * target's photo lock, taken before any row lock so that uploads committed meanwhile come first in
 * the log's transaction order too.
 */
export async function deletePhotosOfTarget(
  tx: WriteTx,
  store: EventStore,
  target: Target,
  metadata: EventMetadata,
): Promise<number[]> {
  const rows = await tx.trx
    .selectFrom('photos')
    .select('id')
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id)
    .orderBy('id')
    .execute();
  const ids = rows.map((r) => Number(r.id));
  for (const photoId of ids) {
    await store.append(tx, streamIds.photo(photoId), 'any', [photoDeleted(target, photoId)], { metadata });
  }
  return ids;
}
