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
