import { api } from '../../../lib/api.ts';
import { savedListQuery } from '../saved-pages.ts';
import type { SavedCatsPage } from '../types.ts';

export function getSavedCats(page = 1, signal?: AbortSignal): Promise<SavedCatsPage> {
  return api.get<SavedCatsPage>('/api/users/savedcats', { query: { page, per_page: 50 }, signal });
}

export const savedCatsQuery = savedListQuery('cats', async (page, signal) => {
  const { saved_cats, pagination } = await getSavedCats(page, signal);
  return { items: saved_cats, pagination };
});
