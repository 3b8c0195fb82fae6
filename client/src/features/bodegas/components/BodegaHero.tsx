import { Icon } from '../../../components/Icon.tsx';
import { ToolIcon } from '../../../components/ToolIcon.tsx';
import type { SavedFlag } from '../../saved/index.ts';
import type { BodegaDetail, Photo } from '../../../lib/catalogue.ts';
import { formatLongDate } from '../../../lib/format.ts';
import { ItemHero } from '../../items/index.ts';

type BodegaHeroProps = { bodega: BodegaDetail; primary: Photo | null; saved: SavedFlag; canEdit: boolean };

/** The top of a bodega's page: photo, name with its Verified badge, address, rating and 'Added' date. */
export function BodegaHero({ bodega, primary, saved, canEdit }: BodegaHeroProps) {
  return (
    <ItemHero
      kind="bodega"
      item={bodega}
      primary={primary}
      saved={saved}
      canEdit={canEdit}
      heading={
        <>
          {bodega.name}{' '}
          {bodega.is_verified && (
            <span className="badge badge--success bodega-verified">
              <Icon name="check" size={12} /> Verified
            </span>
          )}
        </>
      }
      meta={
        <>
          <p className="detail-hero__meta-line">
            <Icon name="pin" size={16} />
            <span>{bodega.address}</span>
          </p>
          <p className="detail-hero__meta-line">
            <ToolIcon name="calendar" size={16} />
            <span>Added {formatLongDate(bodega.created_at)}</span>
          </p>
        </>
      }
    >
      {bodega.description ? (
        <p className="detail-text bodega-description">{bodega.description}</p>
      ) : (
        <p className="detail-text detail-text--empty bodega-description">No description yet.</p>
      )}
    </ItemHero>
  );
}
