import { Link } from 'react-router-dom';
import { Icon } from '../../../components/Icon.tsx';
import { Stars } from '../../../components/Stars.tsx';
import type { BodegaSummary } from '../../../lib/catalogue.ts';
import { formatDistance, formatRating, formatReviewCount } from '../../../lib/format.ts';
import { ResultThumb } from './ResultThumb.tsx';
import './result-card.css';

type CardProps = { bodega: BodegaSummary; highlighted: boolean; onHighlight(active: boolean): void };

export function BodegaCard({ bodega, highlighted, onHighlight }: CardProps) {
  return (
    <Link
      to={`/bodega/${bodega.id}`}
      className={highlighted ? 'result-card is-active' : 'result-card'}
      onMouseEnter={() => onHighlight(true)}
      onMouseLeave={() => onHighlight(false)}
      onFocus={() => onHighlight(true)}
      onBlur={() => onHighlight(false)}
      data-testid="bodega-card"
    >
      <ResultThumb src={bodega.primary_photo} type="bodega" />
      <div className="result-card__body">
        <div className="result-card__top">
          <h3 className="result-card__name">
            {bodega.name}
            {bodega.is_verified && (
              <span className="badge badge--success result-card__verified" title="Verified">
                <Icon name="check" size={12} /> Verified
              </span>
            )}
          </h3>
          {bodega.distance !== undefined && (
            <span className="result-card__distance">{formatDistance(bodega.distance)}</span>
          )}
        </div>
        <p className="result-card__line result-card__muted">
          <Icon name="pin" size={14} /> {bodega.address}
        </p>
        {bodega.description && <p className="result-card__description two-lines">{bodega.description}</p>}
        <ul className="result-card__facts">
          <li>
            <Icon name="cat" size={14} /> {bodega.cat_count} {bodega.cat_count === 1 ? 'cat' : 'cats'}
          </li>
        </ul>
        <div className="result-card__rating">
          <Stars rating={bodega.rating} />
          <span className="result-card__rating-value">{formatRating(bodega.rating)}</span>
          <span className="result-card__muted">{formatReviewCount(bodega.review_count)}</span>
        </div>
      </div>
    </Link>
  );
}
