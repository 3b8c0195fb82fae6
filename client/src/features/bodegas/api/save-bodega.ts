import { api } from '../../../lib/api.ts';

/** Saves or unsaves a bodega for the signed-in user; answers the new state. */
export async function setBodegaSaved(id: number, saved: boolean): Promise<boolean> {
  const path = `/api/bodegas/${id}/save`;
  const body = saved ? await api.post<{ saved: boolean }>(path) : await api.delete<{ saved: boolean }>(path);
  return body.saved;
}
