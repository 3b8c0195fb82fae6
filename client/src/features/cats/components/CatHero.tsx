import { Link } from 'react-router-dom';
import { Icon } from '../../../components/Icon.tsx';
import type { SavedFlag } from '../../saved/index.ts';
import type { CatDetail, Photo } from '../../../lib/catalogue.ts';
import { ItemHero } from '../../items/index.ts';

type CatHeroProps = { cat: CatDetail; primary: Photo | null; saved: SavedFlag; canEdit: boolean };

/** The top of a cat's page: its primary photo, name, shop, address and rating. */
export function CatHero({ cat, primary, saved, canEdit }: CatHeroProps) {
  return (
    <ItemHero
      kind="cat"
      item={cat}
      primary={primary}
      saved={saved}
      canEdit={canEdit}
      meta={
        <>
          <p className="detail-hero__meta-line">
            <Icon name="store" size={16} />
            <Link to={`/bodega/${cat.bodega_id}`}>{cat.bodega_name}</Link>
          </p>
          <p className="detail-hero__meta-line">
            <Icon name="pin" size={16} />
            <span>{cat.address}</span>
          </p>
        </>
      }
    />
  );
}
