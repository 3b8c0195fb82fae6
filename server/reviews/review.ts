// A review: the pure decisions on posting and deleting one. Its state is what the reviews
// projection keeps (the projection is its evolve): for a post, the target's row (whether it exists,
// whether moderation hid it) and whether this user has reviewed it, as the post's one combined
// statement reads them; for a deletion, the review's row.
import { Conflict, Forbidden, NotFound } from '../errors.ts';
import { shownTo, targetNotFound, type Target } from '../events/targets.ts';
import type { NewEvent, Role } from '../events/types.ts';

export type ReviewEvent = NewEvent<'ReviewPosted' | 'ReviewDeleted'>;

/** What a post decides on; `reviewId` is drawn only when the user has not reviewed the target. */
export type PostState =
  | { targetExists: false }
  | { targetExists: true; hidden: boolean; createdBy: number | null; reviewId: number | null };

export type ReviewRow = { id: number; target: Target; userId: number };

export type PostReview = { userId: number; role: Role; target: Target; rating: number; comment: string };
export type DeleteReview = { userId: number; reviewId: number };

export function alreadyReviewed(target: Target): Conflict {
  return new Conflict(`You have already reviewed this ${target.type}`, 'already_reviewed');
}

export function decidePost(command: PostReview, state: PostState): ReviewEvent[] {
  const { target } = command;
  if (!state.targetExists) throw targetNotFound(target);
  // A hidden cat or bodega takes no reviews from who may not see it, and answers as a missing one
  // (before "already reviewed", which would tell that it is there).
  const reader = { id: command.userId, role: command.role };
  if (!shownTo(reader, { hidden: state.hidden, created_by: state.createdBy })) throw targetNotFound(target);
  if (state.reviewId === null) throw alreadyReviewed(target);
  const data = {
    review_id: state.reviewId,
    target_type: target.type,
    target_id: target.id,
    user_id: command.userId,
    rating: command.rating,
    comment: command.comment,
  };
  return [{ type: 'ReviewPosted', data }];
}

/**
 * Deleting takes something away, so its author may delete a review whatever moderation did to it
 * or to its target: the author knows the review is there, so nothing is told, and hiding must not
 * keep a person's words in place against their wish (account deletion removes them anyway).
 */
export function decideDelete(command: DeleteReview, review: ReviewRow | null): ReviewEvent[] {
  if (!review) throw new NotFound('Review not found');
  if (review.userId !== command.userId) throw new Forbidden('You can only delete your own reviews');
  const data = {
    review_id: review.id,
    target_type: review.target.type,
    target_id: review.target.id,
    user_id: command.userId,
  };
  return [{ type: 'ReviewDeleted', data }];
}
