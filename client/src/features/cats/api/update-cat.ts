import { api } from '../../../lib/api.ts';
import type { CatResponse, CatSex } from '../../../lib/catalogue.ts';

export type CatEdit = {
  name: string;
  description: string;
  age: string;
  breed: string;
  sex: CatSex;
  personality: string;
  color: string;
  weight: string;
  is_friendly: boolean;
};

/** Saves the creator's edit; `version` is the one loaded, so a change made meanwhile is a 409. */
export function updateCat(id: number, edit: CatEdit, version: number): Promise<CatResponse> {
  return api.put<CatResponse>(`/api/cats/${id}`, edit, { headers: { 'If-Match': String(version) } });
}
