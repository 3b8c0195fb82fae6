// What the live stream (GET /api/stream) sends, as the client reads it.
import type { BodegaSummary, CatSummary, Photo, TargetType } from '../../lib/catalogue.ts';

type TargetRef = { target_type: TargetType; target_id: number };
/** Every photo message carries the target's primary photo (both variants) as it now stands. */
type TargetPrimary = TargetRef & { primary_photo: string | null; primary_thumb: string | null };

export type LiveData = {
  'cat.added': CatSummary;
  'cat.updated': Partial<CatSummary> & { id: number };
  'cat.deleted': { id: number; bodega_id: number };
  'bodega.added': BodegaSummary;
  'bodega.updated': Partial<BodegaSummary> & { id: number };
  'bodega.deleted': { id: number };
  'review.posted': TargetRef & {
    id: number;
    cat_id: number | null;
    bodega_id: number | null;
    rating: number;
    comment: string;
    created_at: string;
    user: { id: number; username: string | null };
  };
  'rating.updated': TargetRef & { rating: number; review_count: number };
  'photo.ready': Photo & TargetPrimary;
  'photo.primary': TargetPrimary & { id: number };
  'photo.deleted': TargetPrimary & { id: number };
};

export type LiveEventType = keyof LiveData;

export type LiveEvent<T extends LiveEventType = LiveEventType> = T extends LiveEventType
  ? { type: T; cursor: string; at: string; data: LiveData[T] }
  : never;

/** The server could not replay what this client missed: refetch whatever is on screen. */
export type LiveReset = { type: 'reset' };

export type LiveMessage = LiveEvent | LiveReset;

export type LiveListener = (message: LiveMessage) => void;

const EVENT_TYPES: readonly string[] = [
  'cat.added',
  'cat.updated',
  'cat.deleted',
  'bodega.added',
  'bodega.updated',
  'bodega.deleted',
  'review.posted',
  'rating.updated',
  'photo.ready',
  'photo.primary',
  'photo.deleted',
] satisfies LiveEventType[];

export function isLiveEvent(message: unknown): message is LiveEvent {
  if (!message || typeof message !== 'object') return false;
  const { type, data } = message as { type?: unknown; data?: unknown };
  return typeof type === 'string' && EVENT_TYPES.includes(type) && !!data && typeof data === 'object';
}
