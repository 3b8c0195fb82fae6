import { Icon } from '../../../components/Icon.tsx';
import { ItemCard } from '../../../components/ItemCard.tsx';
import { Stars } from '../../../components/Stars.tsx';
import { formatRating, formatRelativeTime, formatReviewCount } from '../../../lib/format.ts';
import type { ViewedItem } from '../types.ts';

export function ViewedItemCard({ item, now }: { item: ViewedItem; now: number }) {
  const isCat = item.type === 'cat';
  return (
    <ItemCard
      to={`/${item.type}/${item.id}`}
      name={item.name}
      thumb={item.primary_thumb}
      kind={item.type}
      eyebrow={
        <>
          <span className={isCat ? 'badge badge--cat' : 'badge badge--bodega'}>
            {isCat ? 'Cat' : 'Bodega'}
          </span>
          <time dateTime={item.viewed_at} className="viewed__time">
            {formatRelativeTime(item.viewed_at, now)}
          </time>
        </>
      }
    >
      {isCat && item.bodega_name && (
        <p className="item-card__line">
          <Icon name="store" size={14} /> {item.bodega_name}
        </p>
      )}
      <p className="item-card__line">
        <Icon name="pin" size={14} /> {item.address}
      </p>
      {item.description && <p className="item-card__description two-lines">{item.description}</p>}
      <div className="item-card__rating">
        <Stars rating={item.rating} />
        <span>{formatRating(item.rating)}</span>
        <span>{formatReviewCount(item.review_count)}</span>
      </div>
    </ItemCard>
  );
}
