import { mutationOptions, useMutation } from '@tanstack/react-query';
import type { AccountDeleted } from '../../../../../contract/users.ts';
import { api } from '../../../lib/api.ts';
import { useSession } from '../stores/session.ts';

/** Deletes the signed-in account and its personal data; a wrong password is a 403. */
export function deleteAccount(password: string): Promise<AccountDeleted> {
  return api.deleteWithBody<AccountDeleted>('/api/auth/account', { password });
}

/** Deletes the account (the password confirms it); this session ends with it. */
export const deleteAccountMutation = mutationOptions({
  mutationFn: deleteAccount,
  onSuccess: () => useSession.getState().logout(),
});

export function useDeleteAccountMutation() {
  return useMutation(deleteAccountMutation);
}
