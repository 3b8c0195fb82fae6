// A user as the API shows them to themselves (with their email); others only ever see a review's
// author (contract/reviews.ts).
import { Type, type Static } from '@sinclair/typebox';
import { Message } from './common.ts';

export const Role = Type.Union([Type.Literal('member'), Type.Literal('moderator')]);
export type Role = Static<typeof Role>;

export const User = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: Type.Optional(Type.String()),
  /** In the caller's own profile and auth answers. */
  role: Type.Optional(Role),
});
export type User = Static<typeof User>;

/** A password's length in code points, as the account rules check it (server/accounts/rules.ts). */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 200;

// Lengths in the bodies only bound the work a request can cause; the account rules answer 400 in
// words a person can act on.

/** `POST /api/auth/register`. */
export const RegisterBody = Type.Object(
  {
    username: Type.String({ maxLength: 1000 }),
    email: Type.String({ maxLength: 1000 }),
    password: Type.String({ maxLength: 1000 }),
  },
  { additionalProperties: false },
);
export type RegisterBody = Static<typeof RegisterBody>;

/** `POST /api/auth/login`: the username may also be the account's email address. */
export const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX * 4 }),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

/** `GET /api/auth/profile`: the caller's own account. */
export const Profile = Type.Object({ user: User });
export type Profile = Static<typeof Profile>;

/** What registering and signing in answer: the session's token and its user, email included. */
export const Session = Type.Object({ access_token: Type.String(), user: User });
export type Session = Static<typeof Session>;

/** `PUT /api/auth/password`. Lengths only bound the work; the password rules answer 400 in words. */
export const PasswordChange = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: 1000 }),
    new_password: Type.String({ maxLength: 1000 }),
  },
  { additionalProperties: false },
);
export type PasswordChange = Static<typeof PasswordChange>;

/** The fresh token a password change answers with: every older one is rejected from then on. */
export const FreshToken = Type.Object({ access_token: Type.String() });
export type FreshToken = Static<typeof FreshToken>;

/** `POST /api/auth/logout-all` answers an empty object: every session, this one too, has ended. */
export const SignedOutEverywhere = Type.Object({}, { additionalProperties: false });
export type SignedOutEverywhere = Static<typeof SignedOutEverywhere>;

/** `DELETE /api/auth/account`: the password, typed again, confirms it. */
export const AccountDeletion = Type.Object(
  { password: Type.String({ minLength: 1, maxLength: 1000 }) },
  { additionalProperties: false },
);
export type AccountDeletion = Static<typeof AccountDeletion>;

export const AccountDeleted = Message;
export type AccountDeleted = Static<typeof AccountDeleted>;
