import { api } from '../../../lib/api.ts';
import type { SavedCatsPage } from '../types.ts';

export function getSavedCats(page = 1): Promise<SavedCatsPage> {
  return api.get<SavedCatsPage>('/api/users/savedcats', { query: { page, per_page: 50 } });
}
