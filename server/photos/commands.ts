// The photo workflows: each loads what decidePhoto (photo.ts) decides on and appends what it
// decided, in the caller's transaction under the target's photo lock (targetPhotosLock), so
// uploads, primary switches, deletes and the worker's outcomes for one cat or bodega commit one at
// a time, in the order the log then replays them.
import type { Kysely } from 'kysely';
import type { DB, PhotoRow } from '../db/schema.ts';
import { targetPhotosLock } from '../events/locks.ts';
import type { EventStore, Write, WriteTx } from '../events/store.ts';
import { requireTarget, type Target, type TargetRow } from '../events/targets.ts';
import { streamIds, type EventMetadata, type Role } from '../events/types.ts';
import { decidePhoto, photoDeleted, type NewPhoto, type PhotoCommand, type PhotoState } from './photo.ts';
import { findPhoto } from './read.ts';

/** Records an upload whose original is already stored. The caller holds the target's photo lock. */
export async function recordUpload(
  tx: WriteTx,
  store: EventStore,
  state: { target: Target; owner: TargetRow },
  photo: NewPhoto,
  metadata: EventMetadata,
): Promise<PhotoRow> {
  const events = decidePhoto({ type: 'UploadPhoto', photo }, { ...state, photo: null });
  await store.append(tx, streamIds.photo(photo.photoId), 0, events, { metadata });
  return (await findPhoto(tx.trx, photo.photoId))!;
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
