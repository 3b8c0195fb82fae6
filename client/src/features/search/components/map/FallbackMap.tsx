// The built-in map used when Google Maps cannot be (no key, bad key, script failed): every
// location plotted by its coordinates on a Web Mercator projection, with the same legend,
// markers that open on click or Enter, and an info card on hover or focus.
import { useMemo, useRef } from 'react';
import { Icon } from '../../../../components/Icon.tsx';
import { gridLines } from './grid.ts';
import { InfoCard } from './InfoCard.tsx';
import { Landmarks } from './landmarks.tsx';
import { MapControls } from './MapControls.tsx';
import { MapLegend } from './MapLegend.tsx';
import { LocationMarker, UserMarker } from './MapMarkers.tsx';
import { metresPerPixel, toScreen } from './projection.ts';
import { spreadOverlapping } from './spread.ts';
import type { MapViewProps } from './types.ts';
import { useElementWidth } from './use-element-width.ts';
import { useInfoHover } from './use-info-hover.ts';
import { MAP_HEIGHT, useMapCamera } from './use-map-camera.ts';
import './fallback-map.css';

export function FallbackMap({
  locations,
  userLocation,
  highlightedKey,
  onHighlight,
  onMarkerClick,
}: MapViewProps) {
  const frame = useRef<HTMLDivElement>(null);
  const width = useElementWidth(frame);
  const { camera, view, zoomBy, handlers } = useMapCamera(locations, userLocation, width);
  const { keepInfo, releaseInfo } = useInfoHover(onHighlight);

  const placed = useMemo(
    () =>
      spreadOverlapping(
        locations.map((location) => ({
          location,
          ...toScreen({ lat: location.latitude, lng: location.longitude }, view),
        })),
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- view is rebuilt from these each render
    [locations, camera, width],
  );
  const user = userLocation ? toScreen(userLocation, view) : null;
  const highlighted = placed.find((p) => p.location.key === highlightedKey) ?? null;

  function hover(key: string, active: boolean) {
    if (!active) return releaseInfo();
    keepInfo();
    onHighlight(key);
  }

  return (
    <div className="fmap" ref={frame}>
      <svg
        className="fmap__canvas"
        width={width}
        height={MAP_HEIGHT}
        viewBox={`0 0 ${width} ${MAP_HEIGHT}`}
        role="application"
        aria-roledescription="map"
        aria-label={`Map of ${locations.length} location${locations.length === 1 ? '' : 's'}. Use arrow keys to pan, plus and minus to zoom, Tab to move between markers.`}
        tabIndex={0}
        {...handlers}
      >
        <rect className="fmap__land" x={0} y={0} width={width} height={MAP_HEIGHT} />
        <g className="fmap__grid" aria-hidden="true">
          {gridLines(view).map((line) => (
            <line key={line.key} x1={line.x1} y1={line.y1} x2={line.x2} y2={line.y2} />
          ))}
        </g>
        <Landmarks view={view} />
        {placed.map(({ location, x, y }) => (
          <LocationMarker
            key={location.key}
            location={location}
            x={x}
            y={y}
            active={location.key === highlightedKey}
            onOpen={onMarkerClick}
            onHover={(active) => hover(location.key, active)}
            onEscape={() => onHighlight(null)}
          />
        ))}
        {user && <UserMarker x={user.x} y={user.y} />}
      </svg>
      <MapControls metresPerPixel={metresPerPixel(camera.center.lat, camera.zoom)} onZoom={zoomBy} />
      <MapLegend showUser={userLocation !== null} />
      {locations.length === 0 && (
        <p className="fmap__empty">
          <Icon name="map" size={18} /> No locations to show yet
        </p>
      )}
      {highlighted && (
        <InfoCard
          location={highlighted.location}
          x={highlighted.x}
          y={highlighted.y}
          containerWidth={width}
          onMouseEnter={keepInfo}
          onMouseLeave={releaseInfo}
        />
      )}
    </div>
  );
}
