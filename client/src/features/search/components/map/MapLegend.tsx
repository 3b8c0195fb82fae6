import './map-legend.css';

/** Cat (red), Bodega (cyan) and, once the user's position is known, You (blue). */
export function MapLegend({ showUser }: { showUser: boolean }) {
  return (
    <ul className="map-legend" aria-label="Map legend">
      <li>
        <span className="map-legend__dot map-legend__dot--cat" aria-hidden="true" />
        Cat
      </li>
      <li>
        <span className="map-legend__dot map-legend__dot--bodega" aria-hidden="true" />
        Bodega
      </li>
      {showUser && (
        <li>
          <span className="map-legend__dot map-legend__dot--you" aria-hidden="true" />
          You
        </li>
      )}
    </ul>
  );
}
