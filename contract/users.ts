// A user as the API shows them to themselves (with their email); others only ever see a review's
// author (contract/reviews.ts).
import { Type, type Static } from '@sinclair/typebox';

export const User = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: Type.Optional(Type.String()),
});
export type User = Static<typeof User>;
