import { api } from '../../../lib/api.ts';
import type { CatResponse } from '../../../lib/catalogue.ts';

/** A cat with its bodega (records a recently viewed entry when signed in). */
export function getCat(id: number): Promise<CatResponse> {
  return api.get<CatResponse>(`/api/cats/${id}`);
}
