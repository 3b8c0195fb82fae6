// Builds what the live stream sends (contract/live.ts) from the log's events. Private events
// (saved lists, uploads' storage paths, anything about a user beyond id and username) map to
// nothing and are never sent. Each message names the items it shows (visibility.ts), so that it is
// only ever sent while none of them is hidden or deleted.
import type { BodegaSummary, CatSummary } from '../../contract/catalogue.ts';
import type { LiveData, LiveEvent, LiveEventType } from '../../contract/live.ts';
import type { TargetType } from '../db/schema.ts';
import { formatCursor, cursorOf } from '../events/consumer.ts';
import { ERASED } from '../events/personal.ts';
import { assertNever, type BodegaFields, type RecordedEvent } from '../events/types.ts';
import { primaryPhotoUrls } from '../catalogue/index.ts';
import { toPhoto } from '../photos/index.ts';
import { toReview } from '../reviews/index.ts';
import type { Subject } from './visibility.ts';

/** What a photo's upload event says about it (never its private storage path). */
export type PhotoUpload = {
  filename: string;
  caption: string;
  uploadedBy: number | null;
  uploadedAt: Date;
};

/**
 * What a message needs beyond its event. Answers are "as of the event" where the log can say
 * (so every api instance and every replay builds the same message); see lookups.ts.
 */
export type LiveLookups = {
  bodegaAsOf(bodegaId: number, position: number): Promise<BodegaFields | null>;
  photoUpload(photoId: number): Promise<PhotoUpload | null>;
  /** The target's primary photo now, if it is ready and not hidden. */
  primaryPhotoOf(type: TargetType, targetId: number): Promise<{ id: number; filename: string } | null>;
  username(userId: number): Promise<string | null>;
  /** The bodega a cat belongs to (it never moves), also once the cat is deleted. */
  catBodega(catId: number): Promise<number | null>;
  /** Whether the target's own deletion was appended in this transaction (its photos go with it). */
  targetDeletedIn(type: TargetType, targetId: number, transactionId: string): Promise<boolean>;
};

type Built<T extends LiveEventType> = [T, LiveData[T], Subject[]?];
type AnyBuilt = { [T in LiveEventType]: Built<T> }[LiveEventType];

/** A message and the items it shows. */
export type BuiltMessage = { message: LiveEvent; subjects: Subject[] };

export async function toLiveMessage(
  event: RecordedEvent,
  lookups: LiveLookups,
): Promise<BuiltMessage | null> {
  const built = await buildData(event, lookups);
  if (!built) return null;
  const message = {
    type: built[0],
    cursor: formatCursor(cursorOf(event)),
    at: event.recordedAt.toISOString(),
    data: built[1],
  } as LiveEvent;
  return { message, subjects: [...(await subjectsOf(message, lookups)), ...(built[2] ?? [])] };
}

/** The cat or bodega a message is about, or hangs off: withheld while it is hidden. */
async function targetSubjects(type: TargetType, id: number, lookups: LiveLookups): Promise<Subject[]> {
  if (type === 'bodega') return [{ type: 'bodega', id, as: 'item' }];
  // A cat is hidden through its bodega too; its row says so, but once the cat is deleted only its
  // bodega's own state can.
  const bodega = await lookups.catBodega(id);
  const subjects: Subject[] = [{ type: 'cat', id, as: 'item' }];
  if (bodega !== null) subjects.push({ type: 'bodega', id: bodega, as: 'item' });
  return subjects;
}

async function subjectsOf(message: LiveEvent, lookups: LiveLookups): Promise<Subject[]> {
  switch (message.type) {
    case 'cat.added':
    case 'cat.deleted':
      return [
        { type: 'cat', id: message.data.id, as: 'item' },
        { type: 'bodega', id: message.data.bodega_id, as: 'item' },
      ];
    case 'cat.updated':
      return targetSubjects('cat', message.data.id, lookups);
    case 'bodega.added':
    case 'bodega.updated':
    case 'bodega.deleted':
      return [{ type: 'bodega', id: message.data.id, as: 'item' }];
    case 'review.posted':
      return [
        { type: 'review', id: message.data.id, as: 'text' },
        ...(await targetSubjects(message.data.target_type, message.data.target_id, lookups)),
      ];
    case 'rating.updated':
      return targetSubjects(message.data.target_type, message.data.target_id, lookups);
    case 'photo.ready':
    case 'photo.primary':
    case 'photo.deleted':
      // A deleted photo's message says it is gone: withheld only if it had been hidden.
      return [
        { type: 'photo', id: message.data.id, as: message.type === 'photo.deleted' ? 'item' : 'text' },
        ...(await targetSubjects(message.data.target_type, message.data.target_id, lookups)),
      ];
    case 'content.hidden':
    case 'content.restored':
      return [];
    default:
      return assertNever(message);
  }
}

/** The target a photo message is about and its primary photo now (TargetPrimary, contract/live.ts). */
function targetPrimary(
  d: { target_type: TargetType; target_id: number },
  primary: { filename: string } | null,
) {
  const urls = primaryPhotoUrls(d.target_type, primary?.filename ?? null);
  return { target_type: d.target_type, target_id: d.target_id, ...urls };
}

/** The target's primary photo, shown in a photo message as it stood when the message was built. */
function primarySubject(primary: { id: number } | null, photoId: number): Subject[] {
  return primary && primary.id !== photoId ? [{ type: 'photo', id: primary.id, as: 'primary' }] : [];
}

async function buildData(event: RecordedEvent, lookups: LiveLookups): Promise<AnyBuilt | null> {
  const at = event.recordedAt.toISOString();
  switch (event.type) {
    case 'CatAdded':
      return ['cat.added', await catAdded(event, lookups)];
    case 'CatUpdated': {
      const { cat_id, ...fields } = event.data;
      return ['cat.updated', { id: cat_id, ...fields }];
    }
    case 'CatDeleted': {
      const { cat_id, bodega_id } = event.data;
      return ['cat.deleted', { id: cat_id, bodega_id, ...(await placeOf(bodega_id, event, lookups)) }];
    }
    case 'BodegaAdded': {
      const { bodega_id, created_by, ...fields } = event.data;
      return ['bodega.added', newBodega(bodega_id, fields, created_by, at)];
    }
    case 'BodegaUpdated': {
      const { bodega_id, ...fields } = event.data;
      return ['bodega.updated', { id: bodega_id, ...fields }];
    }
    case 'BodegaDeleted': {
      const id = event.data.bodega_id;
      return ['bodega.deleted', { id, ...(await placeOf(id, event, lookups)) }];
    }
    case 'ReviewPosted': {
      const d = event.data;
      // Its author's account is gone (the comment can no longer be opened): nothing of it is sent.
      if (d.comment === ERASED) return null;
      const { review_id, ...row } = d;
      const username = await lookups.username(d.user_id);
      const review = toReview({ id: review_id, ...row, created_at: event.recordedAt, username });
      return ['review.posted', { ...review, target_type: d.target_type, target_id: d.target_id }];
    }
    case 'RatingRecomputed': {
      const { target_type, target_id, rating, review_count } = event.data;
      return ['rating.updated', { target_type, target_id, rating, review_count }];
    }
    case 'PhotoProcessed':
      return photoReady(event, lookups);
    case 'PhotoPrimarySet':
    case 'PhotoDeleted': {
      const d = event.data;
      // A cat's or bodega's deletion deletes its photos first; clients hear only cat.deleted or
      // bodega.deleted for it, as the contract describes a deletion.
      if (
        event.type === 'PhotoDeleted' &&
        (await lookups.targetDeletedIn(d.target_type, d.target_id, event.transactionId))
      )
        return null;
      const primary = await lookups.primaryPhotoOf(d.target_type, d.target_id);
      const data = { id: d.photo_id, ...targetPrimary(d, primary) };
      const shown = primarySubject(primary, d.photo_id);
      return event.type === 'PhotoPrimarySet'
        ? ['photo.primary', data, shown]
        : ['photo.deleted', data, shown];
    }
    case 'ContentHidden':
    case 'ContentRestored': {
      const { target_type, target_id } = event.data;
      return [
        event.type === 'ContentHidden' ? 'content.hidden' : 'content.restored',
        { target_type, target_id },
      ];
    }
    // Not part of the stream: private (saves, upload storage, reports, roles), or not named by
    // the contract.
    case 'BodegaVerified':
    case 'ReviewDeleted':
    case 'PhotoUploaded':
    case 'PhotoFailed':
    case 'ItemSaved':
    case 'ItemUnsaved':
    case 'PasswordChanged':
    case 'SignedOutEverywhere':
    case 'RoleChanged':
    case 'AccountDeleted':
    case 'ContentReported':
    case 'ModerationDecided':
      return null;
    default:
      return assertNever(event);
  }
}

async function catAdded(event: RecordedEvent<'CatAdded'>, lookups: LiveLookups): Promise<CatSummary> {
  const { cat_id, bodega_id, created_by, ...fields } = event.data;
  const bodega = await lookups.bodegaAsOf(bodega_id, event.position);
  return {
    id: cat_id,
    ...fields,
    bodega_id,
    bodega_name: bodega?.name ?? '',
    address: bodega?.address ?? '',
    latitude: bodega?.latitude ?? null,
    longitude: bodega?.longitude ?? null,
    // A cat starts unrated and without photos; rating.updated and photo.* messages follow.
    rating: 0,
    review_count: 0,
    primary_photo: null,
    primary_thumb: null,
    created_by,
    created_at: event.recordedAt.toISOString(),
  };
}

/** A bodega's coordinates as of the event (a deleted cat was at its bodega's). */
async function placeOf(bodegaId: number, event: RecordedEvent, lookups: LiveLookups) {
  const bodega = await lookups.bodegaAsOf(bodegaId, event.position);
  return { latitude: bodega?.latitude ?? null, longitude: bodega?.longitude ?? null };
}

function newBodega(id: number, fields: BodegaFields, createdBy: number | null, at: string): BodegaSummary {
  return {
    id,
    ...fields,
    cat_count: 0,
    rating: 0,
    review_count: 0,
    is_verified: false,
    primary_photo: null,
    primary_thumb: null,
    created_by: createdBy,
    created_at: at,
  };
}

async function photoReady(
  event: RecordedEvent<'PhotoProcessed'>,
  lookups: LiveLookups,
): Promise<Built<'photo.ready'> | null> {
  const d = event.data;
  const photo = await lookups.photoUpload(d.photo_id);
  // Gone, or its uploader's account is (the caption can no longer be opened): nothing to show.
  if (!photo || photo.caption === ERASED) return null;
  const primary = await lookups.primaryPhotoOf(d.target_type, d.target_id);
  const ready = toPhoto({
    id: d.photo_id,
    target_type: d.target_type,
    filename: photo.filename,
    caption: photo.caption,
    is_primary: primary?.id === d.photo_id,
    status: 'ready',
    width: d.width,
    height: d.height,
    uploaded_by: photo.uploadedBy,
    created_at: photo.uploadedAt,
    // A hidden photo's message is withheld (its subjects), never sent marked.
    hidden: false,
  });
  return ['photo.ready', { ...ready, ...targetPrimary(d, primary) }, primarySubject(primary, d.photo_id)];
}
