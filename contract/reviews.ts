// Reviews as the API sends them: only the author's id and username, never an email.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './common.ts';

/** A review's author: id and username (null only where the account cannot be found). */
export const ReviewAuthor = Type.Object({ id: Type.Integer(), username: Nullable(Type.String()) });

export const Review = Type.Object({
  id: Type.Integer(),
  rating: Type.Integer(),
  comment: Type.String(),
  created_at: Type.String(),
  user: ReviewAuthor,
  cat_id: Nullable(Type.Integer()),
  bodega_id: Nullable(Type.Integer()),
});
export type Review = Static<typeof Review>;
