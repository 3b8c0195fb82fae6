import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { historyCleared } from './cache.ts';

export async function clearRecentlyViewed(): Promise<void> {
  await api.delete('/api/users/clear-recently-viewed');
}

/** Clears the history; the cached list empties once the server agrees. */
export const clearRecentlyViewedMutation = mutationOptions({
  mutationFn: clearRecentlyViewed,
  onSuccess: (_data, _variables, _context, { client }) => historyCleared(client),
});

export function useClearRecentlyViewedMutation() {
  return useMutation(clearRecentlyViewedMutation);
}
