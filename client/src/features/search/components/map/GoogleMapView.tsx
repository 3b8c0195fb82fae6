// The Google map of the search screen (loaded only when the deployment has a maps key): the same
// clusters for the visible box as the street map (buttons named "12 cats near here", drawn in
// overlays over the plain Maps JavaScript API; a click zooms in, a single item opens its card),
// live counts, hover sync and "Search this area" once the map has moved, plus Google's place
// search box and the user's marker.
/// <reference types="google.maps" />
import { memo, useEffect, useReducer, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import {
  GoogleMap,
  MarkerF,
  OVERLAY_MOUSE_TARGET,
  OverlayViewF,
  StandaloneSearchBox,
} from '@react-google-maps/api';
import type { Camera } from '../../hooks/use-map-clusters.ts';
import { clusterMarker, highlightOf } from '../../model/cluster-markers.ts';
import { formatArea } from '../../model/area.ts';
import type { Cluster } from '../../model/map-clusters.ts';
import { ClusterMapChrome } from './ClusterMapChrome.tsx';
import { cameraOf, clusterZoomOf, googleZoomOf, pixelOf } from './google-camera.ts';
import { DEFAULT_CENTER, DEFAULT_ZOOM, PLACE_ZOOM, type ClusterMapProps } from './types.ts';
import { useClusterMap, type ClusterMapCamera } from './use-cluster-map.ts';
import './google-map-view.css';

// Points of interest and transit labels would compete with the cats.
const MAP_STYLES: google.maps.MapTypeStyle[] = [
  { featureType: 'poi', elementType: 'labels', stylers: [{ visibility: 'off' }] },
  { featureType: 'transit', elementType: 'labels', stylers: [{ visibility: 'off' }] },
];

const MAP_OPTIONS: google.maps.MapOptions = {
  styles: MAP_STYLES,
  clickableIcons: false,
  streetViewControl: false,
  mapTypeControl: false,
  fullscreenControl: true,
};

const CONTAINER_STYLE = { width: '100%', height: '500px' };
const YOU_COLOUR = '#1e88e5';

type ClusterButtonProps = {
  cluster: Cluster;
  label: string;
  className: string;
  text: string;
  size: string;
  onSelect(cluster: Cluster): void;
  onHover(cluster: Cluster, on: boolean): void;
};

/**
 * One cluster, a button centred on its point. Its click is handled on the button itself and goes
 * no further, nor do presses that would start a drag or a double-click zoom: the map must not take
 * them as its own. (Google's preventMapHitsAndGesturesFrom would also hide them from React.)
 */
const ClusterButton = memo(function ClusterButton({
  cluster,
  label,
  className,
  text,
  size,
  onSelect,
  onHover,
}: ClusterButtonProps) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const element = button.current;
    if (!element) return;
    const select = (event: Event) => {
      event.stopPropagation();
      onSelect(cluster);
    };
    const keep = (event: Event) => event.stopPropagation();
    const kept = ['dblclick', 'mousedown', 'pointerdown', 'touchstart'] as const;
    element.addEventListener('click', select);
    kept.forEach((name) => element.addEventListener(name, keep));
    return () => {
      element.removeEventListener('click', select);
      kept.forEach((name) => element.removeEventListener(name, keep));
    };
  }, [cluster, onSelect]);
  return (
    <PointOverlay lat={cluster.lat} lng={cluster.lng}>
      <button
        ref={button}
        type="button"
        className={`${className} gmap__marker`}
        aria-label={label}
        style={{ '--cluster-size': size } as CSSProperties}
        onMouseEnter={() => onHover(cluster, true)}
        onMouseLeave={() => onHover(cluster, false)}
        onFocus={() => onHover(cluster, true)}
        onBlur={() => onHover(cluster, false)}
      >
        <span className="cluster__dot" aria-hidden="true">
          {text}
        </span>
      </button>
    </PointOverlay>
  );
});

/** Content placed at a point. Its position object is kept: a new one would make a new overlay. */
function PointOverlay({ lat, lng, children }: { lat: number; lng: number; children: ReactNode }) {
  const [position] = useState(() => ({ lat, lng }));
  return (
    <OverlayViewF position={position} mapPaneName={OVERLAY_MOUSE_TARGET}>
      {children}
    </OverlayViewF>
  );
}

export default function GoogleMapView({
  state,
  area,
  locations,
  userLocation,
  highlightedKey,
  onHighlight,
  onSearchArea,
  onPlacePicked,
}: ClusterMapProps) {
  const [map, setMap] = useState<google.maps.Map | null>(null);
  const [camera, setCamera] = useState<Camera | null>(null);
  const searchBox = useRef<google.maps.places.SearchBox | null>(null);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const moves: ClusterMapCamera | null = map && {
    zoom: () => clusterZoomOf(map.getZoom() ?? DEFAULT_ZOOM),
    zoomTo(center, zoom) {
      map.panTo(center);
      map.setZoom(googleZoomOf(zoom));
    },
  };
  const clusters = useClusterMap({ state, camera, locations, onHighlight, onSearchArea, moves });
  const { view, lastChange, open, markMoved } = clusters;
  const tab = state.tab;
  /** Set while the map moves on its own (to an area or the user): that is not the user's move. */
  const quiet = useRef(true);

  // The first view is the searched area or, as on the street map, midtown at the default zoom (the
  // map's own props). A searched area from elsewhere (back and forward, a link, a spot's cluster)
  // is brought into view; the one just searched from this view is already there.
  useEffect(() => {
    if (!map || !area) return;
    const box = area;
    const now = cameraOf(map);
    if (now && formatArea(now.box) === formatArea(box)) return;
    quiet.current = true;
    map.fitBounds(box, 8);
  }, [map, area]);

  // The user's position, when known: the map goes there.
  useEffect(() => {
    if (!map || !userLocation) return;
    quiet.current = true;
    map.panTo(userLocation);
    map.setZoom(Math.max(map.getZoom() ?? DEFAULT_ZOOM, googleZoomOf(14)));
  }, [map, userLocation]);

  // The view settled: its clusters are asked for, and a view the user moved to (by dragging,
  // zooming, the keyboard or the place search) may be searched.
  function handleIdle() {
    if (!map) return;
    const next = cameraOf(map);
    if (!quiet.current && next && camera && formatArea(next.box) !== formatArea(camera.box)) markMoved();
    setCamera(next);
    quiet.current = false;
  }

  function handlePlacesChanged() {
    const place = searchBox.current?.getPlaces()?.[0];
    const position = place?.geometry?.location;
    if (!place || !position) return;
    const address = place.formatted_address ?? place.name ?? '';
    const coords = { lat: position.lat(), lng: position.lng() };
    map?.panTo(coords);
    map?.setZoom(PLACE_ZOOM);
    onPlacePicked?.(address, coords);
  }

  const highlight = highlightOf(view, tab, highlightedKey, locations);
  return (
    <div className="gmap" onKeyDown={(e) => e.key === 'Escape' && clusters.close()}>
      {onPlacePicked && (
        <StandaloneSearchBox
          onLoad={(box) => (searchBox.current = box)}
          onPlacesChanged={handlePlacesChanged}
        >
          <input
            className="input gmap__search"
            type="text"
            placeholder="Search a place on the map"
            aria-label="Search a place on the map"
          />
        </StandaloneSearchBox>
      )}
      <GoogleMap
        mapContainerStyle={CONTAINER_STYLE}
        center={DEFAULT_CENTER}
        zoom={DEFAULT_ZOOM}
        options={MAP_OPTIONS}
        onLoad={setMap}
        onUnmount={() => setMap(null)}
        onIdle={handleIdle}
        onDragEnd={markMoved}
        // An open card follows its point while the map moves.
        onBoundsChanged={() => open && redraw()}
        onClick={clusters.close}
      >
        {userLocation && (
          <MarkerF
            position={userLocation}
            title="You"
            icon={{
              path: google.maps.SymbolPath.CIRCLE,
              fillColor: YOU_COLOUR,
              fillOpacity: 1,
              strokeColor: '#ffffff',
              strokeWeight: 2,
              scale: 9,
            }}
            animation={google.maps.Animation.BOUNCE}
            zIndex={1000}
          />
        )}
        {view?.answer.clusters.map((cluster) => {
          const marker = clusterMarker(cluster, tab, { view, bump: lastChange });
          const active = marker.key !== null && marker.key === highlight.marker;
          return (
            <ClusterButton
              // A cluster that moved or changed its count is a new overlay (and bumps afresh).
              key={`${tab} ${cluster.lat} ${cluster.lng} ${cluster.count}`}
              cluster={cluster}
              label={marker.label}
              className={active ? `${marker.className} cluster--active` : marker.className}
              text={marker.text}
              size={marker.size}
              onSelect={clusters.select}
              onHover={clusters.hover}
            />
          );
        })}
        {highlight.pin && (
          <PointOverlay key={highlight.pin.key} lat={highlight.pin.latitude} lng={highlight.pin.longitude}>
            <div
              className={`cluster-map__pin cluster-map__pin--${highlight.pin.type} gmap__marker`}
              aria-hidden="true"
            />
          </PointOverlay>
        )}
      </GoogleMap>
      <ClusterMapChrome
        tab={tab}
        clusters={clusters}
        cardAt={open && map ? pixelOf(map, open.cluster) : null}
        width={map?.getDiv().clientWidth ?? 0}
        showUser={userLocation !== null}
      />
    </div>
  );
}
