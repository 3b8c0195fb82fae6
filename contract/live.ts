// What the live stream (GET /api/stream) sends: each public event as a small message that a map,
// a list or a detail page applies in place (upsert by id), plus the stream's own hello and reset.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { BodegaChange, BodegaSummary, CatChange, CatSummary, Photo } from './catalogue.ts';
import { Nullable, TargetType } from './common.ts';
import { ModerationTargetType } from './moderation.ts';
import { ReviewAuthor } from './reviews.ts';

const TargetRef = { target_type: TargetType, target_id: Type.Integer() };
/**
 * Moderation reaches reviews and photos as well as cats and bodegas. The stream is public: no
 * message shows a hidden or deleted item (nor a cat of a hidden bodega), live or replayed, while
 * `content.hidden` and `content.restored` always go out; what was withheld is not sent again on
 * `content.restored` (clients read again).
 */
const ModeratedRef = { target_type: ModerationTargetType, target_id: Type.Integer() };

/** Where a deleted cat or bodega was (its bodega's place as of the deletion), for an open map. */
const Place = { latitude: Nullable(Type.Number()), longitude: Nullable(Type.Number()) };

/**
 * Every photo message carries the target's `primary_photo` and `primary_thumb` as they now stand
 * (the meaning they have in CatSummary and BodegaSummary), because the primary also moves without
 * an event of its own (first upload, deletion of the primary).
 */
const TargetPrimary = {
  ...TargetRef,
  primary_photo: Nullable(Type.String()),
  primary_thumb: Nullable(Type.String()),
};

/** The `data` of each message type. */
export const LiveData = {
  'cat.added': CatSummary,
  'cat.updated': CatChange,
  'cat.deleted': Type.Object({ id: Type.Integer(), bodega_id: Type.Integer(), ...Place }),
  'bodega.added': BodegaSummary,
  'bodega.updated': BodegaChange,
  'bodega.deleted': Type.Object({ id: Type.Integer(), ...Place }),
  'review.posted': Type.Object({
    id: Type.Integer(),
    ...TargetRef,
    cat_id: Nullable(Type.Integer()),
    bodega_id: Nullable(Type.Integer()),
    rating: Type.Integer(),
    comment: Type.String(),
    created_at: Type.String(),
    user: ReviewAuthor,
  }),
  'rating.updated': Type.Object({ ...TargetRef, rating: Type.Number(), review_count: Type.Integer() }),
  'photo.ready': Type.Composite([Photo, Type.Object(TargetPrimary)]),
  'photo.primary': Type.Object({ id: Type.Integer(), ...TargetPrimary }),
  'photo.deleted': Type.Object({ id: Type.Integer(), ...TargetPrimary }),
  'content.hidden': Type.Object(ModeratedRef),
  'content.restored': Type.Object(ModeratedRef),
} satisfies Record<string, TSchema>;

export type LiveEventType = keyof typeof LiveData;
export type LiveData = { [T in LiveEventType]: Static<(typeof LiveData)[T]> };

/** One public event: `cursor` resumes the stream after it (`?after=`). */
export type LiveEvent<T extends LiveEventType = LiveEventType> = T extends LiveEventType
  ? { type: T; cursor: string; at: string; data: LiveData[T] }
  : never;

/** The first message on a connection: the stream's head, to resume from after a drop. */
export const LiveHello = Type.Object({ type: Type.Literal('hello'), cursor: Type.String() });
export type LiveHello = Static<typeof LiveHello>;

/** The server could not replay what this client missed: the client refetches what it shows. */
export const LiveReset = Type.Object({ type: Type.Literal('reset'), cursor: Type.Optional(Type.String()) });
export type LiveReset = Static<typeof LiveReset>;

export type LiveMessage = LiveEvent | LiveHello | LiveReset;
