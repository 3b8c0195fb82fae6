// The reviews of a cat or shop: the list (newest first, kept current by the live stream), and for
// signed-in visitors the 'Write Review' button that opens the form.
import { useEffect, useState } from 'react';
import type { Review, TargetType } from '../../../lib/catalogue.ts';
import { useLiveCatchUp } from '../../../hooks/use-live-catch-up.ts';
import { useLiveEvents } from '../../live/use-live-events.ts';
import { useSession } from '../../auth/stores/session.ts';
import { getReviews } from '../api/get-reviews.ts';
import { mergeReviews } from '../review-list.ts';
import { ReviewForm } from './ReviewForm.tsx';
import { ReviewList } from './ReviewList.tsx';
import '../reviews.css';

type ReviewsSectionProps = { targetType: TargetType; targetId: number };

type Loaded = { reviews: Review[]; page: number; pages: number };

const NOTHING_LOADED: Loaded = { reviews: [], page: 0, pages: 0 };

export function ReviewsSection({ targetType, targetId }: ReviewsSectionProps) {
  const user = useSession((s) => s.user);
  const [writing, setWriting] = useState(false);
  const [loaded, setLoaded] = useState<Loaded>(NOTHING_LOADED);
  const [loadingMore, setLoadingMore] = useState(false);

  useEffect(() => {
    let current = true;
    setLoaded(NOTHING_LOADED);
    getReviews(targetType, targetId).then(
      // Reviews heard live while the first page was on its way stay: it may predate them.
      ({ reviews, pagination }) =>
        current &&
        setLoaded((l) => ({ reviews: mergeReviews(l.reviews, reviews), page: 1, pages: pagination.pages })),
      () => {
        // The page stays useful without its reviews: the spec keeps this failure silent.
      },
    );
    return () => {
      current = false;
    };
  }, [targetType, targetId]);

  /** Adds the newest reviews to what is listed (after the live stream may have missed some). */
  async function refresh() {
    try {
      const { reviews } = await getReviews(targetType, targetId);
      setLoaded((l) => ({ ...l, reviews: mergeReviews(l.reviews, reviews) }));
    } catch {
      // The list stays as it is.
    }
  }

  useLiveCatchUp(() => void refresh());
  useLiveEvents((message) => {
    if (message.type === 'reset') return void refresh();
    if (message.type !== 'review.posted') return;
    const { target_type, target_id, ...review } = message.data;
    if (target_type !== targetType || target_id !== targetId) return;
    setLoaded((l) => ({ ...l, reviews: mergeReviews(l.reviews, [review]) }));
  });

  async function loadMore() {
    setLoadingMore(true);
    try {
      const next = loaded.page + 1;
      const { reviews, pagination } = await getReviews(targetType, targetId, next);
      setLoaded((l) => ({ reviews: mergeReviews(l.reviews, reviews), page: next, pages: pagination.pages }));
    } catch {
      // Leave the list as it is; the button stays for another try.
    } finally {
      setLoadingMore(false);
    }
  }

  function submitted(review: Review) {
    setWriting(false);
    setLoaded((l) => ({ ...l, reviews: mergeReviews(l.reviews, [review]) }));
  }

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
          onSubmitted={submitted}
          onCancel={() => setWriting(false)}
        />
      )}
      <ReviewList reviews={loaded.reviews} />
      {loaded.page > 0 && loaded.page < loaded.pages && (
        <button
          type="button"
          className="button button--secondary reviews__more"
          onClick={() => void loadMore()}
          disabled={loadingMore}
        >
          {loadingMore ? 'Loading...' : 'Show more reviews'}
        </button>
      )}
    </section>
  );
}
