import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { bodegaChanged } from './cache.ts';

/** Deletes a bodega and, with it, every cat listed there. */
export async function deleteBodega(id: number, version: number): Promise<void> {
  await api.delete(`/api/bodegas/${id}`, { headers: { 'If-Match': String(version) } });
}

export const deleteBodegaMutation = mutationOptions({
  mutationFn: ({ id, version }: { id: number; version: number }) => deleteBodega(id, version),
  onSuccess: (_answer, { id }, _context, { client }) => bodegaChanged(client, id),
});

export function useDeleteBodegaMutation() {
  return useMutation(deleteBodegaMutation);
}
