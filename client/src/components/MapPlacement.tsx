// "Place on map" for a shop's position: a button opening the street map picker when the deployment
// has a style and the browser WebGL (nothing otherwise), and a line when the map cannot load.
import { lazy, Suspense, useState } from 'react';
import { useStreetMapStyle } from '../hooks/use-street-map-style.ts';
import type { Coordinates } from '../lib/coordinates.ts';
import { Icon } from './Icon.tsx';
import './location-picker.css';

const LocationPicker = lazy(() => import('./LocationPicker.tsx'));

type MapPlacementProps = { value: Coordinates | null; onPick(coords: Coordinates): void; disabled?: boolean };

export function MapPlacement({ value, onPick, disabled }: MapPlacementProps) {
  const styleUrl = useStreetMapStyle();
  const [open, setOpen] = useState(false);
  const [failed, setFailed] = useState(false);
  if (!styleUrl) return null;
  if (failed)
    return (
      <p className="location-picker__failed">The map could not be loaded: the position stays as it is.</p>
    );
  return (
    <div className="location-picker">
      <button
        type="button"
        className="button button--secondary button--small"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        disabled={disabled}
      >
        <Icon name="map" size={16} />
        {open ? 'Hide map' : 'Place on map'}
      </button>
      {open && (
        <Suspense fallback={<div className="location-picker__map" />}>
          <LocationPicker styleUrl={styleUrl} value={value} onPick={onPick} onFail={() => setFailed(true)} />
        </Suspense>
      )}
    </div>
  );
}
