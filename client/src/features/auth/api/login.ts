import { api } from '../../../lib/api.ts';
import type { AuthResponse } from '../types.ts';

/** `username` may be a username or an email address. */
export function loginWithPassword(username: string, password: string): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/login', { username, password });
}
