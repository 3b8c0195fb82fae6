// Reviews as the API sends them: only the author's id and username, never an email; and the body
// that posts one.
import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable, Pagination } from './common.ts';

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

/** `GET /api/reviews/{cat|bodega}/:id`: a page of a target's reviews, newest first. */
export const ReviewPage = Type.Object({ reviews: Type.Array(Review), pagination: Pagination });
export type ReviewPage = Static<typeof ReviewPage>;

const OptionalId = Type.Optional(Type.Union([Id, Type.Null()]));

/**
 * `POST /api/reviews`: exactly one of cat_id and bodega_id (the server answers 400 in words
 * otherwise); the comment's length is checked in characters by the server (TEXT_LIMITS.comment).
 */
export const NewReviewBody = Type.Object(
  {
    cat_id: OptionalId,
    bodega_id: OptionalId,
    rating: Type.Integer({ minimum: 1, maximum: 5 }),
    comment: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: false },
);
export type NewReviewBody = Static<typeof NewReviewBody>;

/** What `POST /api/reviews` answers: the review as posted. */
export const PostedReview = Type.Object({ review: Review });
export type PostedReview = Static<typeof PostedReview>;
