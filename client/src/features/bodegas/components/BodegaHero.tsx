import { Link } from 'react-router-dom';
import { HeartButton } from '../../../components/HeartButton.tsx';
import { Icon } from '../../../components/Icon.tsx';
import { ItemPhoto } from '../../../components/ItemPhoto.tsx';
import { Stars } from '../../../components/Stars.tsx';
import { ToolIcon } from '../../../components/ToolIcon.tsx';
import type { SavedFlag } from '../../../hooks/use-saved-flag.ts';
import type { BodegaDetail, Photo } from '../../../lib/catalogue.ts';
import { formatLongDate, formatRating, formatReviewCount } from '../../../lib/format.ts';

type BodegaHeroProps = { bodega: BodegaDetail; primary: Photo | null; saved: SavedFlag; canEdit: boolean };

/** The top of a bodega's page: photo, name with its Verified badge, address, rating and 'Added' date. */
export function BodegaHero({ bodega, primary, saved, canEdit }: BodegaHeroProps) {
  return (
    <article className="card detail-hero">
      <ItemPhoto
        className="detail-hero__photo"
        kind="store"
        src={primary?.url}
        alt={primary?.caption || `Photo of ${bodega.name}`}
        width={primary?.width}
        height={primary?.height}
        loading="eager"
      />
      <div className="detail-hero__body">
        <div className="detail-hero__title-row">
          <h1 className="detail-hero__title">
            {bodega.name}{' '}
            {bodega.is_verified && (
              <span className="badge badge--success bodega-verified">
                <Icon name="check" size={12} /> Verified
              </span>
            )}
          </h1>
          <div className="detail-hero__actions">
            <HeartButton
              saved={saved.saved}
              busy={saved.busy}
              onToggle={() => void saved.toggle()}
              saveLabel="Save Bodega"
            />
            {canEdit && (
              <Link
                to={`/bodega/${bodega.id}/edit`}
                className="icon-button"
                aria-label="Edit bodega"
                title="Edit bodega"
              >
                <ToolIcon name="pencil" />
              </Link>
            )}
          </div>
        </div>
        <div className="detail-hero__meta">
          <p className="detail-hero__meta-line">
            <Icon name="pin" size={16} />
            <span>{bodega.address}</span>
          </p>
          <p className="detail-hero__meta-line">
            <ToolIcon name="calendar" size={16} />
            <span>Added {formatLongDate(bodega.created_at)}</span>
          </p>
        </div>
        <div className="detail-rating">
          <Stars rating={bodega.rating} size="medium" />
          <span className="detail-rating__value">{formatRating(bodega.rating)}</span>
          <span className="detail-rating__count">({formatReviewCount(bodega.review_count)})</span>
        </div>
        {bodega.description ? (
          <p className="detail-text bodega-description">{bodega.description}</p>
        ) : (
          <p className="detail-text detail-text--empty bodega-description">No description yet.</p>
        )}
      </div>
    </article>
  );
}
