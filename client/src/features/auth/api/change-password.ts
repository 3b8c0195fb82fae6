import type { FreshToken } from '../../../../../contract/users.ts';
import { api } from '../../../lib/api.ts';

/** Answers the fresh token; every token issued before (this session's too) stops working. */
export function changePassword(currentPassword: string, newPassword: string): Promise<FreshToken> {
  return api.put<FreshToken>('/api/auth/password', {
    current_password: currentPassword,
    new_password: newPassword,
  });
}
