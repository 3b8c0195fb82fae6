import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useSession } from '../stores/session.ts';

/** Ends every session of the account, this one included. */
export async function logoutEverywhere(): Promise<void> {
  await api.post('/api/auth/logout-all');
}

/** Ends every session on the server, then this one. */
export const logoutEverywhereMutation = mutationOptions({
  mutationFn: logoutEverywhere,
  onSuccess: () => useSession.getState().logout(),
});

export function useLogoutEverywhereMutation() {
  return useMutation(logoutEverywhereMutation);
}
