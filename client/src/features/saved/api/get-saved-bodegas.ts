import { api } from '../../../lib/api.ts';
import { savedListQuery } from '../saved-pages.ts';
import type { SavedBodegasPage } from '../types.ts';

export function getSavedBodegas(page = 1, signal?: AbortSignal): Promise<SavedBodegasPage> {
  return api.get<SavedBodegasPage>('/api/users/savedbodegas', { query: { page, per_page: 50 }, signal });
}

export const savedBodegasQuery = savedListQuery('bodegas', async (page, signal) => {
  const { saved_bodegas, pagination } = await getSavedBodegas(page, signal);
  return { items: saved_bodegas, pagination };
});
