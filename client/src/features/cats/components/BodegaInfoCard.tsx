import { Link } from 'react-router-dom';
import { Stars } from '../../../components/Stars.tsx';
import type { BodegaSummary } from '../../../lib/catalogue.ts';
import { formatRating } from '../../../lib/format.ts';

/** The sidebar card about the shop the cat lives in. */
export function BodegaInfoCard({ bodega }: { bodega: BodegaSummary }) {
  return (
    <section className="card" aria-labelledby="bodega-information">
      <h2 id="bodega-information" className="section-title">
        Bodega Information
      </h2>
      <h3 className="info-card__name">{bodega.name}</h3>
      <p className="info-card__address">{bodega.address}</p>
      {bodega.description && <p className="detail-text">{bodega.description}</p>}
      <dl className="info-list">
        <div className="info-list__row">
          <dt>Rating</dt>
          <dd className="detail-rating">
            <Stars rating={bodega.rating} />
            {formatRating(bodega.rating)}
          </dd>
        </div>
        <div className="info-list__row">
          <dt>Cats</dt>
          <dd>{bodega.cat_count}</dd>
        </div>
        {bodega.phone && (
          <div className="info-list__row">
            <dt>Phone</dt>
            <dd>
              <a href={`tel:${bodega.phone.replace(/[^\d+]/g, '')}`}>{bodega.phone}</a>
            </dd>
          </div>
        )}
        {bodega.hours && (
          <div className="info-list__row">
            <dt>Hours</dt>
            <dd>{bodega.hours}</dd>
          </div>
        )}
        <div className="info-list__row">
          <dt>Status</dt>
          <dd>
            {bodega.is_verified ? (
              <span className="badge badge--success">Verified</span>
            ) : (
              <span className="badge">Pending</span>
            )}
          </dd>
        </div>
      </dl>
      <Link to={`/bodega/${bodega.id}`} className="button button--secondary button--block">
        View Bodega
      </Link>
    </section>
  );
}
