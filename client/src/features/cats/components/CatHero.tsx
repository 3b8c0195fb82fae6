import { Link } from 'react-router-dom';
import { HeartButton } from '../../../components/HeartButton.tsx';
import { Icon } from '../../../components/Icon.tsx';
import { ItemPhoto } from '../../../components/ItemPhoto.tsx';
import { Stars } from '../../../components/Stars.tsx';
import { ToolIcon } from '../../../components/ToolIcon.tsx';
import type { CatDetail, Photo } from '../../../lib/catalogue.ts';
import { formatRating, formatReviewCount } from '../../../lib/format.ts';
import type { SavedFlag } from '../../../hooks/use-saved-flag.ts';

type CatHeroProps = { cat: CatDetail; primary: Photo | null; saved: SavedFlag; canEdit: boolean };

/** The top of a cat's page: its primary photo, name, shop, address and rating. */
export function CatHero({ cat, primary, saved, canEdit }: CatHeroProps) {
  return (
    <article className="card detail-hero">
      <ItemPhoto
        className="detail-hero__photo"
        src={primary?.url}
        alt={primary?.caption || `Photo of ${cat.name}`}
        width={primary?.width}
        height={primary?.height}
        loading="eager"
      />
      <div className="detail-hero__body">
        <div className="detail-hero__title-row">
          <h1 className="detail-hero__title">{cat.name}</h1>
          <div className="detail-hero__actions">
            <HeartButton
              saved={saved.saved}
              busy={saved.busy}
              onToggle={() => void saved.toggle()}
              saveLabel="Save Cat"
            />
            {canEdit && (
              <Link to={`/cat/${cat.id}/edit`} className="icon-button" aria-label="Edit cat" title="Edit cat">
                <ToolIcon name="pencil" />
              </Link>
            )}
          </div>
        </div>
        <div className="detail-hero__meta">
          <p className="detail-hero__meta-line">
            <Icon name="store" size={16} />
            <Link to={`/bodega/${cat.bodega_id}`}>{cat.bodega_name}</Link>
          </p>
          <p className="detail-hero__meta-line">
            <Icon name="pin" size={16} />
            <span>{cat.address}</span>
          </p>
        </div>
        <div className="detail-rating">
          <Stars rating={cat.rating} size="medium" />
          <span className="detail-rating__value">{formatRating(cat.rating)}</span>
          <span className="detail-rating__count">({formatReviewCount(cat.review_count)})</span>
        </div>
      </div>
    </article>
  );
}
