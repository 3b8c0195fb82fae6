// The built-in map used when Google Maps cannot be (no key, bad key, script failed): every
// location plotted by its coordinates on a Web Mercator projection, with the same legend,
// markers that open on click or Enter, and an info card on hover or focus.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Icon } from '../../../../components/Icon.tsx';
import type { Coordinates } from '../../model/search-request.ts';
import { InfoCard } from './InfoCard.tsx';
import { MapLegend } from './MapLegend.tsx';
import { fitBounds, fromScreen, metresPerPixel, toScreen, type Viewport } from './projection.ts';
import { DEFAULT_CENTER, DEFAULT_ZOOM, TYPE_LABEL, type MapLocation, type MapViewProps } from './types.ts';
import { gridLines, scaleBar } from './grid.ts';
import { Landmarks } from './landmarks.tsx';
import { spreadOverlapping } from './spread.ts';
import './fallback-map.css';

const HEIGHT = 500;
const MIN_ZOOM = 3;
const MAX_ZOOM = 18;

function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(640);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth || 640);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.round(entry.contentRect.width) || 640);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

function markerLabel(location: MapLocation): string {
  return `${TYPE_LABEL[location.type]}: ${location.name}, ${location.address}. Rated ${location.rating.toFixed(1)}`;
}

export function FallbackMap({
  locations,
  userLocation,
  highlightedKey,
  onHighlight,
  onMarkerClick,
}: MapViewProps) {
  const frame = useRef<HTMLDivElement>(null);
  const width = useWidth(frame);
  const [camera, setCamera] = useState({ center: DEFAULT_CENTER, zoom: DEFAULT_ZOOM });
  const clearTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const drag = useRef<{ x: number; y: number; center: Coordinates; moved: boolean } | null>(null);

  // Re-fit whenever the search results change; live arrivals do not move the camera.
  const fitKey = locations
    .filter((l) => !l.isNew)
    .map((l) => l.key)
    .join(',');
  const userKey = userLocation ? `${userLocation.lat},${userLocation.lng}` : '';
  useEffect(() => {
    const points: Coordinates[] = locations
      .filter((l) => !l.isNew)
      .map((l) => ({ lat: l.latitude, lng: l.longitude }));
    if (userLocation) points.push(userLocation);
    setCamera(
      fitBounds(points, { width, height: HEIGHT }, { center: DEFAULT_CENTER, zoom: DEFAULT_ZOOM }, 64),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the identities, not the arrays
  }, [fitKey, userKey, width]);

  const view: Viewport = { ...camera, width, height: HEIGHT };
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
  const grid = gridLines(view);
  const scale = scaleBar(metresPerPixel(camera.center.lat, camera.zoom));

  function keepInfo() {
    if (clearTimer.current) clearTimeout(clearTimer.current);
    clearTimer.current = null;
  }

  function releaseInfo() {
    keepInfo();
    clearTimer.current = setTimeout(() => onHighlight(null), 250);
  }

  useEffect(() => keepInfo, []);

  function zoomBy(delta: number) {
    setCamera((c) => ({ ...c, zoom: Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, c.zoom + delta)) }));
  }

  function panBy(dx: number, dy: number) {
    setCamera((c) => ({
      ...c,
      center: fromScreen(width / 2 + dx, HEIGHT / 2 + dy, { ...c, width, height: HEIGHT }),
    }));
  }

  function handleMapKey(event: KeyboardEvent) {
    const step = 80;
    const moves: Record<string, () => void> = {
      '+': () => zoomBy(1),
      '=': () => zoomBy(1),
      '-': () => zoomBy(-1),
      ArrowLeft: () => panBy(-step, 0),
      ArrowRight: () => panBy(step, 0),
      ArrowUp: () => panBy(0, -step),
      ArrowDown: () => panBy(0, step),
    };
    const move = moves[event.key];
    if (move && event.target === event.currentTarget) {
      event.preventDefault();
      move();
    }
  }

  function handlePointerDown(event: PointerEvent<SVGSVGElement>) {
    if (event.button !== 0 || (event.target as Element).closest('.fmap-marker')) return;
    drag.current = { x: event.clientX, y: event.clientY, center: camera.center, moved: false };
    event.currentTarget.setPointerCapture(event.pointerId);
  }

  function handlePointerMove(event: PointerEvent<SVGSVGElement>) {
    const start = drag.current;
    if (!start) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) start.moved = true;
    const origin = { center: start.center, zoom: camera.zoom, width, height: HEIGHT };
    setCamera((c) => ({ ...c, center: fromScreen(width / 2 - dx, HEIGHT / 2 - dy, origin) }));
  }

  function handlePointerUp() {
    drag.current = null;
  }

  function handleMarkerKey(event: KeyboardEvent, location: MapLocation) {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onMarkerClick(location);
    } else if (event.key === 'Escape') {
      onHighlight(null);
    }
  }

  const hasUser = userLocation !== null;
  return (
    <div className="fmap" ref={frame}>
      <svg
        className="fmap__canvas"
        width={width}
        height={HEIGHT}
        viewBox={`0 0 ${width} ${HEIGHT}`}
        role="application"
        aria-roledescription="map"
        aria-label={`Map of ${locations.length} location${locations.length === 1 ? '' : 's'}. Use arrow keys to pan, plus and minus to zoom, Tab to move between markers.`}
        tabIndex={0}
        onKeyDown={handleMapKey}
        onPointerDown={handlePointerDown}
        onPointerMove={handlePointerMove}
        onPointerUp={handlePointerUp}
        onPointerCancel={handlePointerUp}
      >
        <rect className="fmap__land" x={0} y={0} width={width} height={HEIGHT} />
        <g className="fmap__grid" aria-hidden="true">
          {grid.map((line) => (
            <line key={line.key} x1={line.x1} y1={line.y1} x2={line.x2} y2={line.y2} />
          ))}
        </g>
        <Landmarks view={view} />
        {placed.map(({ location, x, y }) => (
          <g
            key={location.key}
            className={[
              'fmap-marker',
              `fmap-marker--${location.type}`,
              location.isNew ? 'fmap-marker--new' : '',
              location.key === highlightedKey ? 'fmap-marker--active' : '',
            ].join(' ')}
            transform={`translate(${x.toFixed(1)} ${y.toFixed(1)})`}
            role="link"
            tabIndex={0}
            aria-label={markerLabel(location)}
            data-key={location.key}
            onClick={() => onMarkerClick(location)}
            onKeyDown={(event) => handleMarkerKey(event, location)}
            onMouseEnter={() => (keepInfo(), onHighlight(location.key))}
            onMouseLeave={releaseInfo}
            onFocus={() => (keepInfo(), onHighlight(location.key))}
            onBlur={releaseInfo}
          >
            <g className="fmap-marker__drop">
              {location.isNew && <circle className="fmap-marker__pulse" r={16} />}
              <circle className="fmap-marker__hit" r={14} />
              <circle className="fmap-marker__dot" r={location.key === highlightedKey ? 9 : 7} />
            </g>
          </g>
        ))}
        {user && (
          <g className="fmap-user" transform={`translate(${user.x.toFixed(1)} ${user.y.toFixed(1)})`}>
            <title>You</title>
            <g className="fmap-user__bounce">
              <circle className="fmap-user__halo" r={14} />
              <circle className="fmap-user__dot" r={8} />
            </g>
          </g>
        )}
      </svg>

      <div className="fmap__controls">
        <button type="button" className="fmap__control" aria-label="Zoom in" onClick={() => zoomBy(1)}>
          +
        </button>
        <button type="button" className="fmap__control" aria-label="Zoom out" onClick={() => zoomBy(-1)}>
          −
        </button>
      </div>
      <div className="fmap__scale" aria-hidden="true">
        <span className="fmap__scale-bar" style={{ width: `${scale.pixels}px` }} />
        {scale.label}
      </div>
      <MapLegend showUser={hasUser} />
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
