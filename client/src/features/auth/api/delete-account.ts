import type { AccountDeleted } from '../../../../../contract/users.ts';
import { api } from '../../../lib/api.ts';

/** Deletes the signed-in account and its personal data; a wrong password is a 403. */
export function deleteAccount(password: string): Promise<AccountDeleted> {
  return api.deleteWithBody<AccountDeleted>('/api/auth/account', { password });
}
