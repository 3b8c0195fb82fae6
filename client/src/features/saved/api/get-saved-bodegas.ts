import { api } from '../../../lib/api.ts';
import type { SavedBodegasPage } from '../types.ts';

export function getSavedBodegas(page = 1): Promise<SavedBodegasPage> {
  return api.get<SavedBodegasPage>('/api/users/savedbodegas', { query: { page, per_page: 50 } });
}
