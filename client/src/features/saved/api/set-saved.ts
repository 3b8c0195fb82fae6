import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { mutationKeys } from '../../../lib/query-keys.ts';
import type { SavedKind } from '../types.ts';
import type { SaveResult } from '../../../../../contract/lists.ts';
import { savedChanged } from './cache.ts';

export type SavedChange = { kind: SavedKind; id: number; saved: boolean };

/** Saves or unsaves a cat or bodega for the signed-in user; answers the new state. */
export async function setSaved({ kind, id, saved }: SavedChange): Promise<boolean> {
  const path = `/api/${kind}/${id}/save`;
  const body = saved ? await api.post<SaveResult>(path) : await api.delete<SaveResult>(path);
  return body.saved;
}

/** Saves or unsaves; the item's page and the saved lists in the cache follow the server's answer. */
export const setSavedMutation = mutationOptions({
  mutationKey: mutationKeys.setSaved,
  mutationFn: setSaved,
  onSuccess: (now, { kind, id }, _context, { client }) => savedChanged(client, kind, id, now),
});

export function useSetSavedMutation() {
  return useMutation(setSavedMutation);
}
