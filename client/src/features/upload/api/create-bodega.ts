import { api } from '../../../lib/api.ts';
import type { BodegaResponse } from '../../../lib/catalogue.ts';
import { positionFields, type Coordinates } from '../../../lib/coordinates.ts';

export type NewBodega = { name: string; address: string; description: string; phone: string; hours: string };

export function createBodega(bodega: NewBodega, position: Coordinates | null): Promise<BodegaResponse> {
  return api.post<BodegaResponse>('/api/bodegas', { ...bodega, ...positionFields(position) });
}
