import { api } from '../../../lib/api.ts';
import type { BodegaResponse } from '../../../lib/catalogue.ts';

/** A bodega with its cats (records a recently viewed entry when signed in). */
export function getBodega(id: number): Promise<BodegaResponse> {
  return api.get<BodegaResponse>(`/api/bodegas/${id}`);
}
