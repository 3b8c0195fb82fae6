// The review decisions, given what the post's statement or the review's row shows.
import { describe, expect, it } from 'vitest';
import { Conflict, Forbidden, NotFound } from '../../../server/errors.ts';
import { decideDelete, decidePost } from '../../../server/reviews/review.ts';

const post = {
  userId: 7,
  role: 'member' as const,
  target: { type: 'cat' as const, id: 3 },
  rating: 5,
  comment: 'Friendly',
};
const shown = { targetExists: true as const, hidden: false, createdBy: 1 };

describe('review decisions', () => {
  it('posts a review under the id drawn for it', () => {
    expect(decidePost(post, { ...shown, reviewId: 41 })).toEqual([
      {
        type: 'ReviewPosted',
        data: { review_id: 41, target_type: 'cat', target_id: 3, user_id: 7, rating: 5, comment: 'Friendly' },
      },
    ]);
  });

  it('refuses a post for a missing target (404) or a second one by the same user (409)', () => {
    expect(() => decidePost(post, { targetExists: false })).toThrow(new NotFound('Cat not found'));
    expect(() => decidePost(post, { ...shown, reviewId: null })).toThrow(Conflict);
  });

  it('answers a hidden target as a missing one, before any other check, but to its creator and moderators', () => {
    const hidden = { ...shown, hidden: true };
    const missing = new NotFound('Cat not found');
    expect(() => decidePost(post, { ...hidden, reviewId: 41 })).toThrow(missing);
    expect(() => decidePost(post, { ...hidden, reviewId: null })).toThrow(missing);
    expect(decidePost({ ...post, userId: 1 }, { ...hidden, reviewId: 41 })).toHaveLength(1);
    expect(decidePost({ ...post, role: 'moderator' }, { ...hidden, reviewId: 41 })).toHaveLength(1);
  });

  it('deletes only its author’s review, and 404s a missing one', () => {
    const review = { id: 41, target: { type: 'bodega' as const, id: 2 }, userId: 7 };
    expect(decideDelete({ userId: 7, reviewId: 41 }, review)).toEqual([
      { type: 'ReviewDeleted', data: { review_id: 41, target_type: 'bodega', target_id: 2, user_id: 7 } },
    ]);
    expect(() => decideDelete({ userId: 8, reviewId: 41 }, review)).toThrow(Forbidden);
    expect(() => decideDelete({ userId: 7, reviewId: 41 }, null)).toThrow(new NotFound('Review not found'));
  });
});
