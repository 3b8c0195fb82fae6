// The built-in map's markers: a location's dot (a link: click or Enter opens it) and the user's.
import type { KeyboardEvent } from 'react';
import { TYPE_LABEL, type MapLocation } from './types.ts';

function markerLabel(location: MapLocation): string {
  return `${TYPE_LABEL[location.type]}: ${location.name}, ${location.address}. Rated ${location.rating.toFixed(1)}`;
}

type LocationMarkerProps = {
  location: MapLocation;
  x: number;
  y: number;
  active: boolean;
  onOpen(location: MapLocation): void;
  /** Hover or focus on the marker (true) or off it (false). */
  onHover(active: boolean): void;
  onEscape(): void;
};

export function LocationMarker({ location, x, y, active, onOpen, onHover, onEscape }: LocationMarkerProps) {
  function handleKey(event: KeyboardEvent) {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onOpen(location);
    } else if (event.key === 'Escape') {
      onEscape();
    }
  }

  return (
    <g
      className={[
        'fmap-marker',
        `fmap-marker--${location.type}`,
        location.isNew ? 'fmap-marker--new' : '',
        active ? 'fmap-marker--active' : '',
      ].join(' ')}
      transform={`translate(${x.toFixed(1)} ${y.toFixed(1)})`}
      role="link"
      tabIndex={0}
      aria-label={markerLabel(location)}
      data-key={location.key}
      onClick={() => onOpen(location)}
      onKeyDown={handleKey}
      onMouseEnter={() => onHover(true)}
      onMouseLeave={() => onHover(false)}
      onFocus={() => onHover(true)}
      onBlur={() => onHover(false)}
    >
      <g className="fmap-marker__drop">
        {location.isNew && <circle className="fmap-marker__pulse" r={16} />}
        <circle className="fmap-marker__hit" r={14} />
        <circle className="fmap-marker__dot" r={active ? 9 : 7} />
      </g>
    </g>
  );
}

export function UserMarker({ x, y }: { x: number; y: number }) {
  return (
    <g className="fmap-user" transform={`translate(${x.toFixed(1)} ${y.toFixed(1)})`}>
      <title>You</title>
      <g className="fmap-user__bounce">
        <circle className="fmap-user__halo" r={14} />
        <circle className="fmap-user__dot" r={8} />
      </g>
    </g>
  );
}
