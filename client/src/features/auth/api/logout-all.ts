import { api } from '../../../lib/api.ts';

/** Ends every session of the account, this one included. */
export async function logoutEverywhere(): Promise<void> {
  await api.post('/api/auth/logout-all');
}
