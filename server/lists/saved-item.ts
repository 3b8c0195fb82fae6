// A reader's save of one cat or bodega: the pure decision on it. Its state is whether the item is
// saved now, as the saves projection keeps it (the projection is its evolve).
import type { Target } from '../events/targets.ts';
import type { NewEvent } from '../events/types.ts';

export type SavedItemEvent = NewEvent<'ItemSaved' | 'ItemUnsaved'>;

/** Save or unsave: the state the reader wants the item in. */
export type SaveItem = { userId: number; target: Target; saved: boolean };

/** Asking for the state the item is already in decides nothing, so retries append nothing. */
export function decideSave(command: SaveItem, savedNow: boolean): SavedItemEvent[] {
  if (command.saved === savedNow) return [];
  const data = { user_id: command.userId, target_type: command.target.type, target_id: command.target.id };
  return [command.saved ? { type: 'ItemSaved', data } : { type: 'ItemUnsaved', data }];
}
