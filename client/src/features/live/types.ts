// What the live stream (GET /api/stream) sends, as the client reads it: the contract's types
// (imported as types only).
import type { LiveEvent, LiveEventType, LiveReset } from '../../../../contract/live.ts';

export type { LiveData, LiveEvent, LiveEventType, LiveReset } from '../../../../contract/live.ts';

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
