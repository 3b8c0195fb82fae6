import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { CatResponse } from '../../../lib/catalogue.ts';
import type { CatEditBody } from '../../../../../contract/catalogue.ts';
import { catChanged } from './cache.ts';

/** Every field of the edit form is sent. */
export type CatEdit = Required<CatEditBody>;

/** Saves the creator's edit; `version` is the one loaded, so a change made meanwhile is a 409. */
export function updateCat(id: number, edit: CatEdit, version: number): Promise<CatResponse> {
  return api.put<CatResponse>(`/api/cats/${id}`, edit, { headers: { 'If-Match': String(version) } });
}

export const updateCatMutation = mutationOptions({
  mutationFn: ({ id, edit, version }: { id: number; edit: CatEdit; version: number }) =>
    updateCat(id, edit, version),
  onSuccess: (_answer, { id }, _context, { client }) => catChanged(client, id),
});

export function useUpdateCatMutation() {
  return useMutation(updateCatMutation);
}
