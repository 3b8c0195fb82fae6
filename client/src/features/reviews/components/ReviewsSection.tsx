// The reviews of a cat or shop: the list (newest first, kept current by the live stream), and for
// signed-in visitors the 'Write Review' button that opens the form.
import { useState, type ReactNode } from 'react';
import type { Review, TargetType } from '../../../lib/catalogue.ts';
import { useSession } from '../../auth/index.ts';
import { useReviews } from '../api/get-reviews.ts';
import { ReviewForm } from './ReviewForm.tsx';
import { ReviewList } from './ReviewList.tsx';
import '../reviews.css';

type ReviewsSectionProps = {
  targetType: TargetType;
  targetId: number;
  /** What the page adds to each review (its Report button). */
  reviewAction?: (review: Review) => ReactNode;
};

export function ReviewsSection({ targetType, targetId, reviewAction }: ReviewsSectionProps) {
  const user = useSession((s) => s.user);
  const [writing, setWriting] = useState(false);
  const { reviews, hasMore, loadingMore, loadMore } = useReviews(targetType, targetId);

  return (
    <section className="card reviews" aria-labelledby={`reviews-${targetType}-${targetId}`}>
      <div className="reviews__header">
        <h2 id={`reviews-${targetType}-${targetId}`} className="section-title">
          Reviews
        </h2>
        {user && !writing && (
          <button type="button" className="button button--primary" onClick={() => setWriting(true)}>
            Write Review
          </button>
        )}
      </div>
      {writing && (
        <ReviewForm
          targetType={targetType}
          targetId={targetId}
          onSubmitted={() => setWriting(false)}
          onCancel={() => setWriting(false)}
        />
      )}
      <ReviewList reviews={reviews} action={reviewAction} />
      {hasMore && (
        <button
          type="button"
          className="button button--secondary reviews__more"
          onClick={loadMore}
          disabled={loadingMore}
        >
          {loadingMore ? 'Loading...' : 'Show more reviews'}
        </button>
      )}
    </section>
  );
}
