import { api } from '../../../lib/api.ts';

/** Saves or unsaves a cat for the signed-in user; answers the new state. */
export async function setCatSaved(id: number, saved: boolean): Promise<boolean> {
  const path = `/api/cats/${id}/save`;
  const body = saved ? await api.post<{ saved: boolean }>(path) : await api.delete<{ saved: boolean }>(path);
  return body.saved;
}
