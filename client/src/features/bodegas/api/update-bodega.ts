import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { BodegaResponse } from '../../../lib/catalogue.ts';
import type { BodegaBody } from '../../../../../contract/catalogue.ts';
import { bodegaChanged } from './cache.ts';

export type BodegaEdit = Required<Omit<BodegaBody, 'latitude' | 'longitude'>> & {
  /** Sent only when placed on the map; otherwise a changed address is geocoded again. */
  latitude?: number;
  longitude?: number;
};

/** Saves the creator's edit; `version` is the one loaded, so a change made meanwhile is a 409. */
export function updateBodega(id: number, edit: BodegaEdit, version: number): Promise<BodegaResponse> {
  return api.put<BodegaResponse>(`/api/bodegas/${id}`, edit, { headers: { 'If-Match': String(version) } });
}

export const updateBodegaMutation = mutationOptions({
  mutationFn: ({ id, edit, version }: { id: number; edit: BodegaEdit; version: number }) =>
    updateBodega(id, edit, version),
  onSuccess: (_answer, { id }, _context, { client }) => bodegaChanged(client, id),
});

export function useUpdateBodegaMutation() {
  return useMutation(updateBodegaMutation);
}
