import { Icon } from '../../../../components/Icon.tsx';
import { Stars } from '../../../../components/Stars.tsx';
import { formatRating } from '../../../../lib/format.ts';
import { openDetailsInNewTab, TYPE_LABEL, type MapLocation } from './types.ts';
import './info-card.css';

type InfoCardProps = {
  location: MapLocation;
  x: number;
  y: number;
  containerWidth: number;
  onMouseEnter(): void;
  onMouseLeave(): void;
};

const CARD_WIDTH = 240;

/** The built-in map's info window: icon, name, address, rating, type and 'View Details'. */
export function InfoCard({ location, x, y, containerWidth, onMouseEnter, onMouseLeave }: InfoCardProps) {
  const left = Math.min(Math.max(8, x - CARD_WIDTH / 2), Math.max(8, containerWidth - CARD_WIDTH - 8));
  const below = y < 190; // no room above the marker: open underneath it
  return (
    <div
      className={below ? 'info-card info-card--below' : 'info-card'}
      style={{ left, top: below ? y + 18 : y - 18, width: CARD_WIDTH }}
      onMouseEnter={onMouseEnter}
      onMouseLeave={onMouseLeave}
      role="dialog"
      aria-label={`${TYPE_LABEL[location.type]} ${location.name}`}
    >
      <InfoWindowContent location={location} />
    </div>
  );
}

export function InfoWindowContent({ location }: { location: MapLocation }) {
  return (
    <div className="info-window">
      <div className="info-window__head">
        <span className={`info-window__icon info-window__icon--${location.type}`}>
          <Icon name={location.type === 'cat' ? 'cat' : 'store'} size={18} />
        </span>
        <div>
          <p className="info-window__name">{location.name}</p>
          <p className="info-window__address">{location.address}</p>
        </div>
      </div>
      <div className="info-window__meta">
        <Stars rating={location.rating} />
        <span className="info-window__rating">{formatRating(location.rating)}</span>
        <span className={`badge badge--${location.type}`}>{TYPE_LABEL[location.type]}</span>
      </div>
      <button
        type="button"
        className="button button--primary button--small button--block"
        onClick={() => openDetailsInNewTab(location)}
      >
        View Details <Icon name="external" size={14} />
      </button>
    </div>
  );
}
