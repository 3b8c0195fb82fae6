import { api } from '../../../lib/api.ts';
import type { SavedKind } from '../types.ts';

/** Removes a cat or bodega from the signed-in user's saved list. */
export async function unsave(kind: SavedKind, id: number): Promise<void> {
  await api.delete(`/api/${kind}/${id}/save`);
}
