import type { Session, User } from '../../../../contract/users.ts';

export type { User };

/** What signing in and registering answer. */
export type AuthResponse = Session;
