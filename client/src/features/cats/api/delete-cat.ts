import { api } from '../../../lib/api.ts';

export async function deleteCat(id: number, version: number): Promise<void> {
  await api.delete(`/api/cats/${id}`, { headers: { 'If-Match': String(version) } });
}
