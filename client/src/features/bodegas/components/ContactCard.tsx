import type { BodegaDetail } from '../../../lib/catalogue.ts';

const NOT_GIVEN = 'Not listed';

/** 'Contact & Hours': phone, opening hours and how many cats live there. */
export function ContactCard({ bodega }: { bodega: BodegaDetail }) {
  return (
    <section className="card" aria-labelledby="bodega-contact">
      <h2 id="bodega-contact" className="section-title">
        Contact &amp; Hours
      </h2>
      <dl className="info-list">
        <div className="info-list__row">
          <dt>Phone</dt>
          <dd>
            {bodega.phone ? (
              <a href={`tel:${bodega.phone.replace(/[^\d+]/g, '')}`}>{bodega.phone}</a>
            ) : (
              NOT_GIVEN
            )}
          </dd>
        </div>
        <div className="info-list__row">
          <dt>Hours</dt>
          <dd>{bodega.hours || NOT_GIVEN}</dd>
        </div>
        <div className="info-list__row">
          <dt>Cats</dt>
          <dd>{bodega.cat_count}</dd>
        </div>
      </dl>
    </section>
  );
}
