// The built-in map's camera: fitted to the search results (live arrivals do not move it), zoomed
// with the buttons or + and -, panned with the arrow keys or by dragging.
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { Coordinates } from '../../../../lib/coordinates.ts';
import { fitBounds, fromScreen, type Viewport } from './projection.ts';
import { DEFAULT_CENTER, DEFAULT_ZOOM, type MapLocation } from './types.ts';

export const MAP_HEIGHT = 500;
const MIN_ZOOM = 3;
const MAX_ZOOM = 18;
const KEY_STEP = 80;

type Drag = { x: number; y: number; center: Coordinates; moved: boolean };

/** Re-fits whenever the search results or the user's position change. */
function useFitToResults(
  locations: MapLocation[],
  userLocation: Coordinates | null,
  width: number,
  fit: (camera: { center: Coordinates; zoom: number }) => void,
) {
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
    fit(fitBounds(points, { width, height: MAP_HEIGHT }, { center: DEFAULT_CENTER, zoom: DEFAULT_ZOOM }, 64));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the identities, not the arrays
  }, [fitKey, userKey, width]);
}

export function useMapCamera(locations: MapLocation[], userLocation: Coordinates | null, width: number) {
  const [camera, setCamera] = useState({ center: DEFAULT_CENTER, zoom: DEFAULT_ZOOM });
  const drag = useRef<Drag | null>(null);
  useFitToResults(locations, userLocation, width, setCamera);
  const view: Viewport = { ...camera, width, height: MAP_HEIGHT };

  function zoomBy(delta: number) {
    setCamera((c) => ({ ...c, zoom: Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, c.zoom + delta)) }));
  }

  function panBy(dx: number, dy: number) {
    setCamera((c) => ({
      ...c,
      center: fromScreen(width / 2 + dx, MAP_HEIGHT / 2 + dy, { ...c, width, height: MAP_HEIGHT }),
    }));
  }

  function onKeyDown(event: KeyboardEvent) {
    const moves: Record<string, () => void> = {
      '+': () => zoomBy(1),
      '=': () => zoomBy(1),
      '-': () => zoomBy(-1),
      ArrowLeft: () => panBy(-KEY_STEP, 0),
      ArrowRight: () => panBy(KEY_STEP, 0),
      ArrowUp: () => panBy(0, -KEY_STEP),
      ArrowDown: () => panBy(0, KEY_STEP),
    };
    const move = moves[event.key];
    if (move && event.target === event.currentTarget) {
      event.preventDefault();
      move();
    }
  }

  function onPointerDown(event: PointerEvent<SVGSVGElement>) {
    if (event.button !== 0 || (event.target as Element).closest('.fmap-marker')) return;
    drag.current = { x: event.clientX, y: event.clientY, center: camera.center, moved: false };
    event.currentTarget.setPointerCapture(event.pointerId);
  }

  function onPointerMove(event: PointerEvent<SVGSVGElement>) {
    const start = drag.current;
    if (!start) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) start.moved = true;
    const origin = { center: start.center, zoom: camera.zoom, width, height: MAP_HEIGHT };
    setCamera((c) => ({ ...c, center: fromScreen(width / 2 - dx, MAP_HEIGHT / 2 - dy, origin) }));
  }

  function onPointerUp() {
    drag.current = null;
  }

  const handlers = { onKeyDown, onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp };
  return { camera, view, zoomBy, handlers };
}
