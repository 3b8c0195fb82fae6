import { Link } from 'react-router-dom';
import { detailPath, TYPE_LABEL, type MapLocation } from './types.ts';
import './location-list.css';

type LocationListProps = {
  locations: MapLocation[];
  highlightedKey: string | null;
  onHighlight(key: string | null): void;
  unplottedCount: number;
};

/** Every plotted location as text, for when the interactive map is unavailable. */
export function LocationList({ locations, highlightedKey, onHighlight, unplottedCount }: LocationListProps) {
  if (locations.length === 0 && unplottedCount === 0) return null;
  return (
    <details className="location-list" open>
      <summary>Locations on the map ({locations.length})</summary>
      <ul>
        {locations.map((location) => (
          <li key={location.key}>
            <Link
              to={detailPath(location)}
              className={
                location.key === highlightedKey ? 'location-list__item is-active' : 'location-list__item'
              }
              onMouseEnter={() => onHighlight(location.key)}
              onMouseLeave={() => onHighlight(null)}
              onFocus={() => onHighlight(location.key)}
              onBlur={() => onHighlight(null)}
            >
              <span className={`map-legend__dot map-legend__dot--${location.type}`} aria-hidden="true" />
              <span className="location-list__text">
                <span className="location-list__name">
                  {location.name} <span className="visually-hidden">({TYPE_LABEL[location.type]})</span>
                </span>
                <span className="location-list__address">{location.address}</span>
              </span>
              <span className="location-list__coords">
                {location.latitude.toFixed(4)}, {location.longitude.toFixed(4)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {unplottedCount > 0 && (
        <p className="location-list__note">
          {unplottedCount === 1
            ? '1 result has no known location and is not on the map.'
            : `${unplottedCount} results have no known location and are not on the map.`}
        </p>
      )}
    </details>
  );
}
