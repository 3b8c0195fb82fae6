// Picks the map: Google when the deployment has a working key; otherwise the street map (MapLibre)
// when the deployment has a style and the browser has WebGL; otherwise the built-in drawn map with
// the list of locations, saying in one line why. Key problems are explained in a red box above it.
import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { Spinner } from '../../../../components/Spinner.tsx';
import { getRuntimeConfig } from '../../../../lib/runtime-config.ts';
import type { Box } from '../../model/map-clusters.ts';
import { FallbackMap } from './FallbackMap.tsx';
import { LocationList } from './LocationList.tsx';
import { loadGoogleMaps } from './maps-loader.ts';
import { MAP_ERROR_MESSAGES, onMapsAuthFailure, type MapErrorKind } from './map-errors.ts';
import type { StreetMapFailure, StreetMapProps } from './StreetMapView.tsx';
import type { ClusterMapProps } from './types.ts';
import { offersWebGL } from '../../../../lib/webgl.ts';
import './search-map.css';

const GoogleMapView = lazy(() => import('./GoogleMapView.tsx'));

type Mode = 'checking' | 'google' | 'street' | 'fallback';
/** Why the drawn map is shown although no Google key was set. */
type FallbackReason = 'off' | 'no-webgl' | 'load-failed' | StreetMapFailure;

const FALLBACK_NOTES: Record<FallbackReason, string> = {
  off: 'Street map turned off on this site: showing a drawn map.',
  'no-webgl': 'Street map needs WebGL, which this browser does not offer: showing a drawn map.',
  webgl: 'Street map needs WebGL, which this browser does not offer: showing a drawn map.',
  style: 'Street map tiles could not be loaded: showing a drawn map.',
  'load-failed': 'Street map could not be loaded: showing a drawn map.',
};

type StreetMap = ComponentType<StreetMapProps>;

function useMapMode() {
  const [mode, setMode] = useState<Mode>('checking');
  const [error, setError] = useState<MapErrorKind | null>(null);
  const [note, setNote] = useState<FallbackReason | null>(null);
  const [street, setStreet] = useState<{ View: StreetMap; styleUrl: string } | null>(null);

  useEffect(() => {
    let current = true;
    const fail = (kind: MapErrorKind) => {
      if (!current) return;
      setError(kind);
      setMode('fallback');
    };
    const fallBack = (reason: FallbackReason) => {
      if (!current) return;
      setNote(reason);
      setMode('fallback');
    };
    const stopListening = onMapsAuthFailure(fail);
    getRuntimeConfig()
      .then((config) => {
        const key = config.google_maps_api_key?.trim();
        if (key)
          return loadGoogleMaps(key).then(
            () => current && setMode('google'),
            () => fail('load-failed'),
          );
        const styleUrl = config.map_style_url ?? null;
        if (!styleUrl) return fallBack('off');
        if (!offersWebGL()) return fallBack('no-webgl');
        // maplibre-gl comes in its own chunk, only now.
        return import('./StreetMapView.tsx').then(
          (module) => {
            if (!current) return;
            setStreet({ View: module.default, styleUrl });
            setMode('street');
          },
          () => fallBack('load-failed'),
        );
      })
      .catch(() => current && setMode('fallback'));
    return () => {
      current = false;
      stopListening();
    };
  }, []);

  const streetFailed = (reason: StreetMapFailure) => {
    setNote(reason);
    setMode('fallback');
  };
  return { mode, error, note, street, streetFailed };
}

export type SearchMapProps = ClusterMapProps & { onSearchArea(box: Box): void };

export function SearchMap({ state, area, onSearchArea, ...props }: SearchMapProps) {
  const { mode, error, note, street, streetFailed } = useMapMode();
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
          <GoogleMapView {...props} state={state} area={area} onSearchArea={onSearchArea} />
        </Suspense>
      )}
      {mode === 'street' && street && (
        <street.View
          {...props}
          styleUrl={street.styleUrl}
          state={state}
          area={area}
          onSearchArea={onSearchArea}
          onFail={streetFailed}
        />
      )}
      {mode === 'fallback' && (
        <>
          {note && <p className="map-note">{FALLBACK_NOTES[note]}</p>}
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
