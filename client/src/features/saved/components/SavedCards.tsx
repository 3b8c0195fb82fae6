import { Icon } from '../../../components/Icon.tsx';
import { ItemCard } from '../../../components/ItemCard.tsx';
import { Stars } from '../../../components/Stars.tsx';
import { ToolIcon } from '../../../components/ToolIcon.tsx';
import { formatRating, formatReviewCount } from '../../../lib/format.ts';
import type { SavedBodega, SavedCat } from '../types.ts';

type RemoveProps = { name: string; noun: string; busy: boolean; onRemove(): void };

function RemoveButton({ name, noun, busy, onRemove }: RemoveProps) {
  return (
    <button
      type="button"
      className="item-card__remove"
      onClick={onRemove}
      disabled={busy}
      aria-label={`Remove ${name} from saved ${noun}`}
      title="Remove from Saved"
    >
      <ToolIcon name="trash" />
    </button>
  );
}

function Rating({ rating, reviews }: { rating: number; reviews: number }) {
  return (
    <div className="item-card__rating">
      <Stars rating={rating} />
      <span>{formatRating(rating)}</span>
      <span>{formatReviewCount(reviews)}</span>
    </div>
  );
}

type CardProps<T> = { item: T; busy: boolean; onRemove(): void };

export function SavedCatCard({ item: cat, busy, onRemove }: CardProps<SavedCat>) {
  return (
    <ItemCard
      to={`/cat/${cat.id}`}
      name={cat.name}
      thumb={cat.primary_thumb}
      kind="cat"
      action={<RemoveButton name={cat.name} noun="cats" busy={busy} onRemove={onRemove} />}
    >
      <p className="item-card__line">
        <Icon name="store" size={14} /> {cat.bodega_name}
      </p>
      <p className="item-card__line">
        <Icon name="pin" size={14} /> {cat.address}
      </p>
      {cat.description && <p className="item-card__description two-lines">{cat.description}</p>}
      <Rating rating={cat.rating} reviews={cat.review_count} />
    </ItemCard>
  );
}

export function SavedBodegaCard({ item: bodega, busy, onRemove }: CardProps<SavedBodega>) {
  return (
    <ItemCard
      to={`/bodega/${bodega.id}`}
      name={bodega.name}
      thumb={bodega.primary_thumb}
      kind="bodega"
      eyebrow={bodega.is_verified ? <span className="badge badge--success">Verified</span> : undefined}
      action={<RemoveButton name={bodega.name} noun="bodegas" busy={busy} onRemove={onRemove} />}
    >
      <p className="item-card__line">
        <Icon name="pin" size={14} /> {bodega.address}
      </p>
      {bodega.description && <p className="item-card__description two-lines">{bodega.description}</p>}
      <p className="item-card__line">
        <Icon name="cat" size={14} /> {bodega.cat_count} {bodega.cat_count === 1 ? 'cat' : 'cats'}
      </p>
      <Rating rating={bodega.rating} reviews={bodega.review_count} />
    </ItemCard>
  );
}
