import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { CatResponse } from '../../../lib/catalogue.ts';
import { positionFields, type Coordinates } from '../../../lib/coordinates.ts';
import type { NewCatBody } from '../../../../../contract/catalogue.ts';

/** Every field of the upload form; the position is sent beside them when there is one. */
export type NewCat = Required<Omit<NewCatBody, 'latitude' | 'longitude'>>;

/** Adds a cat; its bodega is found by name and address, or added. */
export function createCat(cat: NewCat, position: Coordinates | null): Promise<CatResponse> {
  return api.post<CatResponse>('/api/cats', { ...cat, ...positionFields(position) });
}

/**
 * Adds a cat. No cached read changes here: the live stream's `cat.added` brings it to every screen
 * that lists its bodega's cats or the search's results.
 */
export const createCatMutation = mutationOptions({
  mutationFn: ({ cat, position }: { cat: NewCat; position: Coordinates | null }) => createCat(cat, position),
});

export function useCreateCatMutation() {
  return useMutation(createCatMutation);
}
