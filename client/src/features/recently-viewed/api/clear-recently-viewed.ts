import { api } from '../../../lib/api.ts';

export async function clearRecentlyViewed(): Promise<void> {
  await api.delete('/api/users/clear-recently-viewed');
}
