import { formatRating, starCount } from '../lib/format.ts';
import './stars.css';

type StarsProps = { rating: number | null | undefined; showValue?: boolean; size?: 'small' | 'medium' };

/** Floor-of-rating filled stars out of five, optionally followed by the rating to one decimal. */
export function Stars({ rating, showValue = false, size = 'small' }: StarsProps) {
  const filled = starCount(rating);
  return (
    <span className={`stars stars--${size}`} aria-label={`Rated ${formatRating(rating)} out of 5`} role="img">
      <span aria-hidden="true">
        {Array.from({ length: 5 }, (_, i) => (
          <span key={i} className={i < filled ? 'star star--on' : 'star'}>
            ★
          </span>
        ))}
      </span>
      {showValue && (
        <span className="stars__value" aria-hidden="true">
          {formatRating(rating)}
        </span>
      )}
    </span>
  );
}
