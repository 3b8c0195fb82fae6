// What the live stream (GET /api/stream) sends, as the client reads it: the contract's types
// (imported as types only).
import type { LiveEvent, LiveReset } from '../../../../contract/live.ts';
import { isLiveEventType } from '../../lib/live.ts';

export type { LiveData, LiveEvent, LiveEventType, LiveReset } from '../../../../contract/live.ts';

export type LiveMessage = LiveEvent | LiveReset;

export type LiveListener = (message: LiveMessage) => void;

export function isLiveEvent(message: unknown): message is LiveEvent {
  if (!message || typeof message !== 'object') return false;
  const { type, data } = message as { type?: unknown; data?: unknown };
  return isLiveEventType(type) && !!data && typeof data === 'object';
}
