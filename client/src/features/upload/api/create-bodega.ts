import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { BodegaResponse } from '../../../lib/catalogue.ts';
import { positionFields, type Coordinates } from '../../../lib/coordinates.ts';
import type { BodegaBody } from '../../../../../contract/catalogue.ts';

/** Every field of the upload form; the position is sent beside them when there is one. */
export type NewBodega = Required<Omit<BodegaBody, 'latitude' | 'longitude'>>;

export function createBodega(bodega: NewBodega, position: Coordinates | null): Promise<BodegaResponse> {
  return api.post<BodegaResponse>('/api/bodegas', { ...bodega, ...positionFields(position) });
}

/**
 * Adds a bodega. No cached read changes here: no cached read lists a bodega that did not exist
 * (the search map hears of it from the live stream's `bodega.added`).
 */
export const createBodegaMutation = mutationOptions({
  mutationFn: ({ bodega, position }: { bodega: NewBodega; position: Coordinates | null }) =>
    createBodega(bodega, position),
});

export function useCreateBodegaMutation() {
  return useMutation(createBodegaMutation);
}
