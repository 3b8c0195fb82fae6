import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { catChanged } from './cache.ts';

/** Deletes the creator's cat; `version` is the one loaded, so a change made meanwhile is a 409. */
export async function deleteCat(id: number, version: number): Promise<void> {
  await api.delete(`/api/cats/${id}`, { headers: { 'If-Match': String(version) } });
}

export const deleteCatMutation = mutationOptions({
  mutationFn: ({ id, version }: { id: number; version: number }) => deleteCat(id, version),
  onSuccess: (_answer, { id }, _context, { client }) => catChanged(client, id),
});

export function useDeleteCatMutation() {
  return useMutation(deleteCatMutation);
}
