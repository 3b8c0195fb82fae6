// Writing a review: a rating of 1 to 5 stars (5 unless changed) and an optional comment.
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast/headless';
import { errorMessage } from '../../../lib/api.ts';
import { TEXT_LIMITS, type Review, type TargetType } from '../../../lib/catalogue.ts';
import { limitedChange } from '../../../lib/text-input.ts';
import { useSession } from '../../auth/index.ts';
import { usePostReviewMutation } from '../api/post-review.ts';
import { StarPicker } from './StarPicker.tsx';

export const DEFAULT_RATING = 5;

type ReviewFormProps = {
  targetType: TargetType;
  targetId: number;
  /** Told once the review is posted (the mutation has added it to the cached list already). */
  onSubmitted(review: Review): void;
  onCancel(): void;
};

export function ReviewForm({ targetType, targetId, onSubmitted, onCancel }: ReviewFormProps) {
  const id = useId();
  const user = useSession((s) => s.user);
  const [rating, setRating] = useState(DEFAULT_RATING);
  const [comment, setComment] = useState('');
  const post = usePostReviewMutation();
  const busy = post.isPending;

  function reset() {
    setRating(DEFAULT_RATING);
    setComment('');
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!user) {
      toast.error('Please log in to leave a review');
      return;
    }
    try {
      const review = await post.mutateAsync({
        type: targetType,
        targetId,
        review: { rating, comment: comment.trim() },
      });
      toast.success('Review submitted successfully');
      reset();
      onSubmitted(review);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to submit review'));
    }
  }

  function cancel() {
    reset();
    onCancel();
  }

  return (
    <form className="review-form" onSubmit={(e) => void submit(e)} aria-label="Write a review">
      <StarPicker value={rating} onChange={setRating} disabled={busy} />
      <div className="field">
        <label className="field__label" htmlFor={`${id}-comment`}>
          Comment
        </label>
        <textarea
          id={`${id}-comment`}
          className="textarea"
          rows={4}
          value={comment}
          placeholder={`Share your experience with this ${targetType}...`}
          onChange={limitedChange(TEXT_LIMITS.comment, setComment)}
          disabled={busy}
        />
      </div>
      <div className="review-form__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? 'Submitting...' : 'Submit Review'}
        </button>
        <button type="button" className="button button--secondary" onClick={cancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
