import type { Profile } from '../../../../../contract/users.ts';
import { api } from '../../../lib/api.ts';

export function getProfile(): Promise<Profile> {
  return api.get<Profile>('/api/auth/profile', { keepSessionOn401: true });
}
