import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useSession } from '../stores/session.ts';
import type { AuthResponse } from '../types.ts';
import type { RegisterBody } from '../../../../../contract/users.ts';

export type NewAccount = RegisterBody;

export function registerAccount(username: string, email: string, password: string): Promise<AuthResponse> {
  const body: NewAccount = { username, email, password };
  return api.post<AuthResponse>('/api/auth/register', body);
}

/** Creates the account and signs in with it. */
export const registerMutation = mutationOptions({
  mutationFn: ({ username, email, password }: NewAccount) => registerAccount(username, email, password),
  onSuccess: (answer) => void useSession.getState().signIn(answer),
});

export function useRegisterMutation() {
  return useMutation(registerMutation);
}
