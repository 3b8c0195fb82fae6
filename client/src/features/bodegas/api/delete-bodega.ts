import { api } from '../../../lib/api.ts';

/** Deletes a bodega and, with it, every cat listed there. */
export async function deleteBodega(id: number, version: number): Promise<void> {
  await api.delete(`/api/bodegas/${id}`, { headers: { 'If-Match': String(version) } });
}
