// Picks the map: Google when the deployment has a working key, otherwise the built-in map with
// the list of locations. Key problems are explained in a red box above the built-in map.
import { lazy, Suspense, useEffect, useState } from 'react';
import { Spinner } from '../../../../components/Spinner.tsx';
import { getRuntimeConfig } from '../../../../lib/runtime-config.ts';
import { FallbackMap } from './FallbackMap.tsx';
import { LocationList } from './LocationList.tsx';
import { loadGoogleMaps } from './maps-loader.ts';
import { MAP_ERROR_MESSAGES, onMapsAuthFailure, type MapErrorKind } from './map-errors.ts';
import type { MapViewProps } from './types.ts';
import './search-map.css';

const GoogleMapView = lazy(() => import('./GoogleMapView.tsx'));

type Mode = 'checking' | 'google' | 'fallback';

function useMapMode(): { mode: Mode; error: MapErrorKind | null } {
  const [mode, setMode] = useState<Mode>('checking');
  const [error, setError] = useState<MapErrorKind | null>(null);

  useEffect(() => {
    let current = true;
    const fail = (kind: MapErrorKind) => {
      if (!current) return;
      setError(kind);
      setMode('fallback');
    };
    const stopListening = onMapsAuthFailure(fail);
    getRuntimeConfig()
      .then((config) => {
        const key = config.google_maps_api_key?.trim();
        if (!key) {
          if (current) setMode('fallback');
          return;
        }
        return loadGoogleMaps(key).then(
          () => current && setMode('google'),
          () => fail('load-failed'),
        );
      })
      .catch(() => current && setMode('fallback'));
    return () => {
      current = false;
      stopListening();
    };
  }, []);

  return { mode, error };
}

export function SearchMap(props: MapViewProps) {
  const { mode, error } = useMapMode();
  return (
    <div className="search-map">
      {error && (
        <div className="error-box map-error" role="alert">
          {MAP_ERROR_MESSAGES[error]}
        </div>
      )}
      {mode === 'checking' && (
        <div className="map-placeholder">
          <Spinner label="Loading map..." />
        </div>
      )}
      {mode === 'google' && (
        <Suspense
          fallback={
            <div className="map-placeholder">
              <Spinner label="Loading map..." />
            </div>
          }
        >
          <GoogleMapView {...props} />
        </Suspense>
      )}
      {mode === 'fallback' && (
        <>
          <FallbackMap {...props} />
          <LocationList
            locations={props.locations}
            highlightedKey={props.highlightedKey}
            onHighlight={props.onHighlight}
            unplottedCount={props.unplottedCount ?? 0}
          />
        </>
      )}
    </div>
  );
}
