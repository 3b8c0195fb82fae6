import type { User } from '../../../../contract/users.ts';

export type { User };

export type AuthResponse = { access_token: string; user: User };
