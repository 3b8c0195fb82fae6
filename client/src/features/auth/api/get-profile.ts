import { api } from '../../../lib/api.ts';
import type { User } from '../types.ts';

export function getProfile(): Promise<{ user: User }> {
  return api.get<{ user: User }>('/api/auth/profile', { keepSessionOn401: true });
}
