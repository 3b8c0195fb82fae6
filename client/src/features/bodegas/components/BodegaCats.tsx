import { Link } from 'react-router-dom';
import { ItemPhoto } from '../../../components/ItemPhoto.tsx';
import { Stars } from '../../../components/Stars.tsx';
import type { CatSummary } from '../../../lib/catalogue.ts';
import { formatReviewCount } from '../../../lib/format.ts';

/** The 'Cats (n)' grid of a bodega's page. */
export function BodegaCats({ cats }: { cats: readonly CatSummary[] }) {
  return (
    <section className="card" aria-labelledby="bodega-cats">
      <h2 id="bodega-cats" className="section-title">
        Cats ({cats.length})
      </h2>
      {cats.length === 0 ? (
        <p className="empty-note">No cats listed yet.</p>
      ) : (
        <ul className="bodega-cats">
          {cats.map((cat) => (
            <li key={cat.id}>
              <Link to={`/cat/${cat.id}`} className="bodega-cat">
                <ItemPhoto className="bodega-cat__photo" src={cat.primary_thumb} alt={cat.name} />
                <div className="bodega-cat__body">
                  <h3 className="bodega-cat__name">{cat.name}</h3>
                  <p className="bodega-cat__facts">{[cat.breed, cat.age].filter(Boolean).join(' · ')}</p>
                  {cat.description && <p className="bodega-cat__description two-lines">{cat.description}</p>}
                  <div className="bodega-cat__rating">
                    <Stars rating={cat.rating} />
                    <span>{formatReviewCount(cat.review_count)}</span>
                  </div>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
