// A reader's save of one cat or bodega: the pure decision on it. Its state is whether the item is
// saved now, as the saves projection keeps it (the projection is its evolve), and whether the reader
// may see the item (moderation may have hidden it).
import { targetNotFound, type Target } from '../events/targets.ts';
import type { NewEvent } from '../events/types.ts';

export type SavedItemEvent = NewEvent<'ItemSaved' | 'ItemUnsaved'>;

/** Save or unsave: the state the reader wants the item in. */
export type SaveItem = { userId: number; target: Target; saved: boolean };

/** The item as the reader finds it: saved by them now, and shown to them (see shownTo). */
export type SaveState = { savedNow: boolean; shown: boolean };

/**
 * Asking for the state the item is already in decides nothing, so retries append nothing. An item
 * hidden from the reader is missing to them (404), but a save they made before it was hidden can
 * still go: unsaving takes their own entry away and tells them nothing they did not know.
 */
export function decideSave(command: SaveItem, { savedNow, shown }: SaveState): SavedItemEvent[] {
  if (!shown && !(savedNow && !command.saved)) throw targetNotFound(command.target);
  if (command.saved === savedNow) return [];
  const data = { user_id: command.userId, target_type: command.target.type, target_id: command.target.id };
  return [command.saved ? { type: 'ItemSaved', data } : { type: 'ItemUnsaved', data }];
}
