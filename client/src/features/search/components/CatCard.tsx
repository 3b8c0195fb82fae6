import { Link } from 'react-router-dom';
import { Icon } from '../../../components/Icon.tsx';
import { Stars } from '../../../components/Stars.tsx';
import type { CatSummary } from '../../../lib/catalogue.ts';
import { formatDistance, formatRating, formatReviewCount } from '../../../lib/format.ts';
import { ResultThumb } from './ResultThumb.tsx';
import './result-card.css';

type CardProps = { cat: CatSummary; highlighted: boolean; onHighlight(active: boolean): void };

export function CatCard({ cat, highlighted, onHighlight }: CardProps) {
  const facts = [cat.breed, cat.age, cat.sex].filter(Boolean);
  return (
    <Link
      to={`/cat/${cat.id}`}
      className={highlighted ? 'result-card is-active' : 'result-card'}
      onMouseEnter={() => onHighlight(true)}
      onMouseLeave={() => onHighlight(false)}
      onFocus={() => onHighlight(true)}
      onBlur={() => onHighlight(false)}
      data-testid="cat-card"
    >
      <ResultThumb src={cat.primary_photo} type="cat" />
      <div className="result-card__body">
        <div className="result-card__top">
          <h3 className="result-card__name">{cat.name}</h3>
          {cat.distance !== undefined && (
            <span className="result-card__distance">{formatDistance(cat.distance)}</span>
          )}
        </div>
        <p className="result-card__line">
          <Icon name="store" size={14} /> {cat.bodega_name}
        </p>
        <p className="result-card__line result-card__muted">
          <Icon name="pin" size={14} /> {cat.address}
        </p>
        {cat.description && <p className="result-card__description two-lines">{cat.description}</p>}
        {facts.length > 0 && (
          <ul className="result-card__facts">
            {cat.breed && <li>{cat.breed}</li>}
            {cat.age && <li>{cat.age}</li>}
            {cat.sex && <li>{cat.sex}</li>}
          </ul>
        )}
        <div className="result-card__rating">
          <Stars rating={cat.rating} />
          <span className="result-card__rating-value">{formatRating(cat.rating)}</span>
          <span className="result-card__muted">{formatReviewCount(cat.review_count)}</span>
        </div>
      </div>
    </Link>
  );
}
