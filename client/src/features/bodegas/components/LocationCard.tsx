import { Icon } from '../../../components/Icon.tsx';
import type { BodegaDetail } from '../../../lib/catalogue.ts';

function coordinate(value: number): string {
  return value.toFixed(6);
}

/** Where the shop is: a map placeholder and its coordinates. */
export function LocationCard({ bodega }: { bodega: BodegaDetail }) {
  const known = bodega.latitude !== null && bodega.longitude !== null;
  return (
    <section className="card" aria-labelledby="bodega-location">
      <h2 id="bodega-location" className="section-title">
        Location
      </h2>
      <div className="location-card__map">
        <Icon name="map" size={32} />
        <span>Map will be displayed here</span>
      </div>
      <p className="location-card__coords">
        {known ? (
          <>
            Coordinates: {coordinate(bodega.latitude!)}, {coordinate(bodega.longitude!)}
          </>
        ) : (
          'Coordinates not available yet.'
        )}
      </p>
    </section>
  );
}
