// The street map of the search screen without a Google key: MapLibre GL with the deployment's
// style, the whole city's matching cats or bodegas as clusters for the visible box (buttons named
// "12 cats near here"; a click zooms in, a single item opens its card), the current results'
// highlighted item pinned, live counts, and "Search this area" once the map has moved. Loaded on
// demand, with maplibre-gl, so the search page's first chunk does not carry it.
import maplibregl, { type LngLatBoundsLike, type LngLatLike } from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import { useEffect, useReducer, useRef, useState } from 'react';
import { openStreetMap, type StreetMapFailure } from '../../../../lib/street-map.ts';
import type { Camera } from '../../hooks/use-map-clusters.ts';
import { clusterMarker, highlightOf } from '../../model/cluster-markers.ts';
import { formatArea } from '../../model/area.ts';
import { ClusterMapChrome } from './ClusterMapChrome.tsx';
import { DEFAULT_CENTER, STREET_DEFAULT_ZOOM, type ClusterMapProps } from './types.ts';
import { useClusterMap, type ClusterMapCamera } from './use-cluster-map.ts';
import './street-map.css';

export type { StreetMapFailure } from '../../../../lib/street-map.ts';

export type StreetMapProps = ClusterMapProps & {
  styleUrl: string;
  onFail(reason: StreetMapFailure): void;
};

function cameraOf(map: maplibregl.Map): Camera {
  const bounds = map.getBounds();
  return {
    box: {
      west: bounds.getWest(),
      south: bounds.getSouth(),
      east: bounds.getEast(),
      north: bounds.getNorth(),
    },
    zoom: map.getZoom(),
  };
}

export default function StreetMapView({
  styleUrl,
  state,
  area,
  locations,
  userLocation,
  highlightedKey,
  onHighlight,
  onSearchArea,
  onFail,
}: StreetMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<maplibregl.Map | null>(null);
  const [camera, setCamera] = useState<Camera | null>(null);
  const [drawn, setDrawn] = useState(false);
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const moves: ClusterMapCamera | null = map && {
    zoom: () => map.getZoom(),
    zoomTo: (center, zoom) => map.easeTo({ center: [center.lng, center.lat], zoom }, { byUser: true }),
  };
  const clusters = useClusterMap({ state, camera, locations, onHighlight, onSearchArea, moves });
  const { view, lastChange, open, markMoved, select, hover } = clusters;
  const openRef = useRef(open);
  openRef.current = open;
  const tab = state.tab;

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    // The searched area, or midtown at the spec's default zoom.
    const view = area
      ? {
          bounds: [area.west, area.south, area.east, area.north] as LngLatBoundsLike,
          fitBoundsOptions: { padding: 8 },
        }
      : { center: [DEFAULT_CENTER.lng, DEFAULT_CENTER.lat] as LngLatLike, zoom: STREET_DEFAULT_ZOOM };
    let created: maplibregl.Map | null = null;
    // The engine starts in a task of its own after the next frame: making the map (its WebGL
    // context, its painter) is one of the page's longest pieces of work, so it neither shares a task
    // with React's commit of the page nor lays that page out again (the map measures its box).
    const start = () => {
      const made = openStreetMap({
        container: element,
        style: styleUrl,
        ...view,
        attributionControl: { compact: false },
        title: 'Street map. Arrow keys pan, plus and minus zoom; the list beside it has every result.',
        onStyled(map) {
          setMap(map);
          setCamera(cameraOf(map));
        },
        onFail,
      });
      if (!made) return;
      created = made;
      made.on('moveend', (event: { originalEvent?: Event; byUser?: boolean }) => {
        setCamera(cameraOf(made));
        if (event.originalEvent || event.byUser) markMoved();
      });
      // An open card follows its point while the map moves.
      made.on('move', () => openRef.current && redraw());
      // The canvas is shown a frame after the map first drew on it. Where the browser composites
      // in software (no usable GPU), showing a WebGL canvas reads its pixels back on the main
      // thread: in the frame that also runs the map's first draw, the two made one long task.
      void made.once('render', () => requestAnimationFrame(() => setDrawn(true)));
    };
    let starting: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (starting = setTimeout(start)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(starting);
      created?.remove();
    };
    // The map is made once; later props reach it through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A searched area from elsewhere (back and forward, a link, a spot's cluster) is brought into view;
  // the one just searched from this view is already there.
  useEffect(() => {
    if (!map || !area) return;
    if (formatArea(cameraOf(map).box) === formatArea(area)) return;
    map.fitBounds([area.west, area.south, area.east, area.north], { padding: 8, maxZoom: 19 });
  }, [map, area]);

  // Clusters as marker buttons, rebuilt with each answer.
  const markers = useRef(new Map<string, HTMLButtonElement>());
  useEffect(() => {
    if (!map || !view) return;
    const made: maplibregl.Marker[] = [];
    markers.current.clear();
    for (const cluster of view.answer.clusters) {
      const marker = clusterMarker(cluster, tab, { view, bump: lastChange });
      const button = document.createElement('button');
      button.type = 'button';
      button.className = marker.className;
      const dot = document.createElement('span');
      dot.className = 'cluster__dot';
      dot.textContent = marker.text;
      dot.setAttribute('aria-hidden', 'true');
      button.append(dot);
      button.setAttribute('aria-label', marker.label);
      button.style.setProperty('--cluster-size', marker.size);
      button.addEventListener('click', (event) => {
        event.stopPropagation();
        select(cluster);
      });
      for (const [name, on] of [
        ['mouseenter', true],
        ['mouseleave', false],
        ['focus', true],
        ['blur', false],
      ] as const)
        button.addEventListener(name, () => hover(cluster, on));
      if (marker.key) markers.current.set(marker.key, button);
      made.push(new maplibregl.Marker({ element: button }).setLngLat([cluster.lng, cluster.lat]).addTo(map));
    }
    return () => made.forEach((m) => m.remove());
  }, [map, view, tab, lastChange, select, hover]);

  // Hover sync: the highlighted result's own marker, or a pin where it is when it is inside a cluster.
  useEffect(() => {
    const { marker, pin } = highlightOf(view, tab, highlightedKey, locations);
    const button = marker ? markers.current.get(marker) : undefined;
    button?.classList.add('cluster--active');
    if (!map || !pin) return () => button?.classList.remove('cluster--active');
    const element = document.createElement('div');
    element.className = `cluster-map__pin cluster-map__pin--${pin.type}`;
    element.setAttribute('aria-hidden', 'true');
    const placed = new maplibregl.Marker({ element }).setLngLat([pin.longitude, pin.latitude]).addTo(map);
    return () => void placed.remove();
  }, [map, view, tab, highlightedKey, locations]);

  // The user's position, when known: shown, and the map goes there.
  useEffect(() => {
    if (!map || !userLocation) return;
    const dot = document.createElement('div');
    dot.className = 'street-map__you';
    dot.setAttribute('aria-hidden', 'true');
    const marker = new maplibregl.Marker({ element: dot })
      .setLngLat([userLocation.lng, userLocation.lat])
      .addTo(map);
    map.easeTo({ center: [userLocation.lng, userLocation.lat], zoom: Math.max(map.getZoom(), 14) });
    return () => void marker.remove();
  }, [map, userLocation]);

  return (
    <div className="street-map" onKeyDown={(e) => e.key === 'Escape' && clusters.close()}>
      <div
        ref={container}
        className={`street-map__canvas${drawn ? '' : ' street-map__canvas--blank'}`}
        onClick={clusters.close}
      />
      <ClusterMapChrome
        tab={tab}
        clusters={clusters}
        cardAt={open && map ? map.project([open.cluster.lng, open.cluster.lat]) : null}
        width={container.current?.clientWidth ?? 0}
        showUser={userLocation !== null}
      />
    </div>
  );
}
