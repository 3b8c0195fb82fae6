import { api } from '../../../lib/api.ts';
import type { BodegaResponse } from '../../../lib/catalogue.ts';
import type { BodegaBody } from '../../../../../contract/catalogue.ts';

export type BodegaEdit = Required<Omit<BodegaBody, 'latitude' | 'longitude'>> & {
  /** Sent only when placed on the map; otherwise a changed address is geocoded again. */
  latitude?: number;
  longitude?: number;
};

/** Saves the creator's edit; `version` is the one loaded, so a change made meanwhile is a 409. */
export function updateBodega(id: number, edit: BodegaEdit, version: number): Promise<BodegaResponse> {
  return api.put<BodegaResponse>(`/api/bodegas/${id}`, edit, { headers: { 'If-Match': String(version) } });
}
