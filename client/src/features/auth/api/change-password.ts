import { mutationOptions, useMutation } from '@tanstack/react-query';
import type { FreshToken } from '../../../../../contract/users.ts';
import { api } from '../../../lib/api.ts';
import { useSession, type User } from '../stores/session.ts';

export type PasswordChange = { currentPassword: string; newPassword: string };

/** Answers the fresh token; every token issued before (this session's too) stops working. */
export function changePassword(currentPassword: string, newPassword: string): Promise<FreshToken> {
  return api.put<FreshToken>('/api/auth/password', {
    current_password: currentPassword,
    new_password: newPassword,
  });
}

/** Changes the password; the fresh token replaces this session's, for the user it was asked for. */
export const changePasswordMutation = mutationOptions({
  onMutate: (): User | null => useSession.getState().user,
  mutationFn: ({ currentPassword, newPassword }: PasswordChange) =>
    changePassword(currentPassword, newPassword),
  onSuccess: ({ access_token }, _change, user) => {
    if (user) useSession.getState().signIn({ access_token, user });
  },
});

export function useChangePasswordMutation() {
  return useMutation(changePasswordMutation);
}
