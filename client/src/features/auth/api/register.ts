import { api } from '../../../lib/api.ts';
import type { AuthResponse } from '../types.ts';

export function registerAccount(username: string, email: string, password: string): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/register', { username, email, password });
}
