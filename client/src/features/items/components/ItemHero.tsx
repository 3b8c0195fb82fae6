// The top of a cat's or bodega's page: its primary photo, its name with Save, Share (and Edit for
// its creator), the lines the kind shows about it, and its rating.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { HeartButton } from '../../../components/HeartButton.tsx';
import { ItemPhoto } from '../../../components/ItemPhoto.tsx';
import { Stars } from '../../../components/Stars.tsx';
import { ToolIcon } from '../../../components/ToolIcon.tsx';
import type { SavedFlag } from '../../saved/index.ts';
import type { Photo, TargetType } from '../../../lib/catalogue.ts';
import { formatRating, formatReviewCount } from '../../../lib/format.ts';
import { ITEM_WORDS, itemPath } from '../../../components/item-kinds.ts';
import { ShareButton } from './ShareButton.tsx';

type ItemHeroProps = {
  kind: TargetType;
  item: { id: number; name: string; rating: number; review_count: number };
  primary: Photo | null;
  saved: SavedFlag;
  canEdit: boolean;
  /** The heading, when it says more than the name. */
  heading?: ReactNode;
  /** The lines under the heading (its shop, its address, when it was added). */
  meta: ReactNode;
  /** Under the rating. */
  children?: ReactNode;
};

export function ItemHero({ kind, item, primary, saved, canEdit, heading, meta, children }: ItemHeroProps) {
  const { noun, title, icon } = ITEM_WORDS[kind];
  return (
    <article className="card detail-hero">
      <ItemPhoto
        className="detail-hero__photo"
        kind={icon}
        src={primary?.url}
        alt={primary?.caption || `Photo of ${item.name}`}
        width={primary?.width}
        height={primary?.height}
        loading="eager"
      />
      <div className="detail-hero__body">
        <div className="detail-hero__title-row">
          <h1 className="detail-hero__title">{heading ?? item.name}</h1>
          <div className="detail-hero__actions">
            <HeartButton
              saved={saved.saved}
              busy={saved.busy}
              onToggle={() => void saved.toggle()}
              saveLabel={`Save ${title}`}
            />
            <ShareButton kind={kind} item={item} />
            {canEdit && (
              <Link
                to={`${itemPath(kind, item.id)}/edit`}
                className="icon-button"
                aria-label={`Edit ${noun}`}
                title={`Edit ${noun}`}
              >
                <ToolIcon name="pencil" />
              </Link>
            )}
          </div>
        </div>
        <div className="detail-hero__meta">{meta}</div>
        <div className="detail-rating">
          <Stars rating={item.rating} size="medium" />
          <span className="detail-rating__value">{formatRating(item.rating)}</span>
          <span className="detail-rating__count">({formatReviewCount(item.review_count)})</span>
        </div>
        {children}
      </div>
    </article>
  );
}
