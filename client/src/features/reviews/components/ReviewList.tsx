import type { ReactNode } from 'react';
import { Stars } from '../../../components/Stars.tsx';
import type { Review } from '../../../lib/catalogue.ts';
import { formatLongDate } from '../../../lib/format.ts';

export const NO_REVIEWS = 'No reviews yet. Be the first to review!';

type ReviewListProps = {
  reviews: readonly Review[];
  /** What a page adds to each review (its Report button). */
  action?: (review: Review) => ReactNode;
};

export function ReviewList({ reviews, action }: ReviewListProps) {
  if (reviews.length === 0) return <p className="empty-note">{NO_REVIEWS}</p>;
  return (
    <ul className="review-list">
      {reviews.map((review) => (
        <li key={review.id} className="review">
          <div className="review__header">
            <span className="review__author">{review.user.username ?? 'Former member'}</span>
            <Stars rating={review.rating} />
            <time className="review__date" dateTime={review.created_at}>
              {formatLongDate(review.created_at)}
            </time>
            {action?.(review)}
          </div>
          {review.comment && <p className="review__comment">{review.comment}</p>}
        </li>
      ))}
    </ul>
  );
}
