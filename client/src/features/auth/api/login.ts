import { mutationOptions, useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { useSession } from '../stores/session.ts';
import type { AuthResponse } from '../types.ts';
import type { LoginBody } from '../../../../../contract/users.ts';

export type Credentials = { usernameOrEmail: string; password: string };

/** `username` may be a username or an email address. */
export function loginWithPassword(username: string, password: string): Promise<AuthResponse> {
  const body: LoginBody = { username, password };
  return api.post<AuthResponse>('/api/auth/login', body);
}

/** Signs in; the session takes the token and the user the server answers. */
export const loginMutation = mutationOptions({
  mutationFn: ({ usernameOrEmail, password }: Credentials) => loginWithPassword(usernameOrEmail, password),
  onSuccess: (answer) => void useSession.getState().signIn(answer),
});

export function useLoginMutation() {
  return useMutation(loginMutation);
}
