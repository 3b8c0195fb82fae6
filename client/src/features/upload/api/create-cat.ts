import { api } from '../../../lib/api.ts';
import type { CatResponse, CatSex } from '../../../lib/catalogue.ts';
import { positionFields, type Coordinates } from '../../../lib/coordinates.ts';

export type NewCat = {
  name: string;
  bodega_name: string;
  address: string;
  description: string;
  age: string;
  breed: string;
  sex: CatSex;
  personality: string;
  color: string;
  weight: string;
  is_friendly: boolean;
};

/** Adds a cat; its bodega is found by name and address, or added. */
export function createCat(cat: NewCat, position: Coordinates | null): Promise<CatResponse> {
  return api.post<CatResponse>('/api/cats', { ...cat, ...positionFields(position) });
}
