import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useSession } from '../stores/session.ts';
import type { AuthResponse } from '../types.ts';

export type NewAccount = { username: string; email: string; password: string };

export function registerAccount(username: string, email: string, password: string): Promise<AuthResponse> {
  return api.post<AuthResponse>('/api/auth/register', { username, email, password });
}

/** Creates the account and signs in with it. */
export const registerMutation = mutationOptions({
  mutationFn: ({ username, email, password }: NewAccount) => registerAccount(username, email, password),
  onSuccess: (answer) => void useSession.getState().signIn(answer),
});

export function useRegisterMutation() {
  return useMutation(registerMutation);
}
