// A photo of a cat or bodega: the pure decisions on it. Its state is the photo's row and its
// target's row, as the projections keep them (the projections are its evolve); the caller holds
// the target's photo lock while it decides and appends.
//
// Who chooses an item's primary photo, on upload or later: its creator and moderators, no one else
// (an uploader choosing it could replace the creator's photo with their own). An item whose creator
// is gone (created_by null) has only moderators to choose; its first photo is still primary, and
// the oldest left takes over when the primary one is deleted. Deleting a photo stays with its
// uploader and the item's creator.
import type { PhotoRow } from '../db/schema.ts';
import { Conflict, Forbidden, NotFound } from '../errors.ts';
import { shownTo, targetNotFound, type Target, type TargetRow } from '../events/targets.ts';
import { assertNever, type NewEvent, type Role } from '../events/types.ts';
import type { ImageType } from './image-type.ts';

export type PhotoEvent = NewEvent<'PhotoUploaded' | 'PhotoPrimarySet' | 'PhotoDeleted'>;

/** The target (which exists) and the photo the command names, if there is one. */
export type PhotoState = { target: Target; owner: TargetRow; photo: PhotoRow | null };

export type NewPhoto = {
  photoId: number;
  uploadedBy: number;
  uploaderRole: Role;
  filename: string;
  originalPath: string;
  type: ImageType;
  caption: string;
  /** Asked for; only who chooses the primary photo gets it (a first photo is primary anyway). */
  makePrimary: boolean;
};

export type PhotoCommand =
  | { type: 'UploadPhoto'; photo: NewPhoto }
  | { type: 'SetPrimaryPhoto'; photoId: number; actorId: number; actorRole: Role }
  | { type: 'DeletePhoto'; photoId: number; actorId: number };

export function decidePhoto(command: PhotoCommand, state: PhotoState): PhotoEvent[] {
  switch (command.type) {
    case 'UploadPhoto': {
      if (state.photo) throw new Conflict('This photo already exists');
      const photo = command.photo;
      // A hidden cat or bodega takes no photos from who may not see it: to them it is missing.
      if (!shownTo({ id: photo.uploadedBy, role: photo.uploaderRole }, state.owner))
        throw targetNotFound(state.target);
      return [
        {
          type: 'PhotoUploaded',
          data: {
            photo_id: photo.photoId,
            target_type: state.target.type,
            target_id: state.target.id,
            uploaded_by: photo.uploadedBy,
            filename: photo.filename,
            original_path: photo.originalPath,
            mime_type: photo.type.mime,
            caption: photo.caption,
            make_primary:
              photo.makePrimary &&
              choosesPrimary({ id: photo.uploadedBy, role: photo.uploaderRole }, state.owner),
          },
        },
      ];
    }
    case 'SetPrimaryPhoto': {
      // What the actor may not see is missing to them: a hidden target, or a hidden photo of
      // someone else's. (Deleting asks neither: it only takes away.)
      const actor = { id: command.actorId, role: command.actorRole };
      if (!shownTo(actor, state.owner)) throw targetNotFound(state.target);
      const photo = photoOf(state);
      if (!shownTo(actor, { hidden: photo.hidden, created_by: uploaderOf(photo) })) throw photoNotFound();
      if (!choosesPrimary(actor, state.owner))
        throw new Forbidden(
          `Only the ${state.target.type}'s creator or a moderator can choose its primary photo`,
        );
      if (photo.is_primary) return [];
      if (photo.status === 'failed')
        throw new Conflict(
          'This photo could not be processed, so it cannot be the primary photo',
          'photo_failed',
        );
      return [{ type: 'PhotoPrimarySet', data: photoRef(state.target, command.photoId) }];
    }
    case 'DeletePhoto':
      deletableBy(state, command.actorId);
      return [photoDeleted(state.target, command.photoId)];
    default:
      return assertNever(command);
  }
}

/** A photo's deletion, by a reader or with its target. */
export function photoDeleted(target: Target, photoId: number): PhotoEvent {
  return { type: 'PhotoDeleted', data: photoRef(target, photoId) };
}

function photoRef(target: Target, photoId: number) {
  return { photo_id: photoId, target_type: target.type, target_id: target.id };
}

/** The item's creator and moderators choose its primary photo (see the top of this file). */
function choosesPrimary(actor: { id: number; role: Role }, owner: TargetRow): boolean {
  return actor.role === 'moderator' || (owner.created_by !== null && owner.created_by === actor.id);
}

function photoNotFound(): NotFound {
  return new NotFound('Photo not found');
}

/** The photo the command names, if it is of this target; 404 otherwise. */
function photoOf({ target, photo }: PhotoState): PhotoRow {
  if (!photo || photo.target_type !== target.type || Number(photo.target_id) !== target.id)
    throw photoNotFound();
  return photo;
}

function uploaderOf(photo: PhotoRow): number | null {
  return photo.uploaded_by === null ? null : Number(photo.uploaded_by);
}

/** The photo of this target to delete: 404 if it is not, 403 unless `actorId` uploaded it or created the target. */
function deletableBy(state: PhotoState, actorId: number): PhotoRow {
  const photo = photoOf(state);
  const { target, owner } = state;
  const uploader = uploaderOf(photo);
  if (actorId !== uploader && actorId !== owner.created_by)
    throw new Forbidden(
      `Only the person who uploaded this photo or the ${target.type}'s creator can delete it`,
    );
  return photo;
}
