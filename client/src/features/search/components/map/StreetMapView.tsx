// The street map of the search screen without a Google key: MapLibre GL with the deployment's
// style, the whole city's matching cats or bodegas as clusters for the visible box (buttons named
// "12 cats near here"; a click zooms in, a single item opens its card), the current results'
// highlighted item pinned, live counts, and "Search this area" once the map has moved. Loaded on
// demand, with maplibre-gl, so the search page's first chunk does not carry it.
import maplibregl from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import { useEffect, useReducer, useRef, useState } from 'react';
import { api } from '../../../../lib/api.ts';
import type { BodegaSummary, CatSummary } from '../../../../lib/catalogue.ts';
import { openStreetMap, type StreetMapFailure } from '../../../../lib/street-map.ts';
import { useMapClusters, type Camera } from '../../hooks/use-map-clusters.ts';
import { clusterLabel, formatArea, sameCellAs, type Box, type Cluster } from '../../model/map-clusters.ts';
import { toMapLocation } from '../../model/map-locations.ts';
import type { SearchState } from '../../model/search-state.ts';
import { InfoCard } from './InfoCard.tsx';
import { MapLegend } from './MapLegend.tsx';
import type { MapLocation, MapViewProps } from './types.ts';
import './street-map.css';

/** The five boroughs: the first view when the URL names no area. */
const CITY_BOX: Box = { west: -74.26, south: 40.49, east: -73.7, north: 40.92 };
/** Zooming into a cluster stops here: every location is its own cluster from zoom 17. */
const MAX_CLUSTER_ZOOM = 17;
const BUMP_MS = 1200;
/** Half the side of the box around one spot (about 10 m). */
const SPOT_DEGREES = 0.0001;

export type { StreetMapFailure } from '../../../../lib/street-map.ts';

export type StreetMapProps = MapViewProps & {
  styleUrl: string;
  state: SearchState;
  /** The box the list is limited to ("Search this area"), if any. */
  area: Box | null;
  onSearchArea?(box: Box): void;
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

function keyOf(tab: SearchState['tab'], cluster: Cluster): string | null {
  if (cluster.count !== 1 || cluster.id === undefined) return null;
  return `${tab === 'cats' ? 'cat' : 'bodega'}-${cluster.id}`;
}

/** A single item's card data, read from the search around its point (a plain read, unlike its page). */
async function locationOf(tab: SearchState['tab'], cluster: Cluster): Promise<MapLocation | null> {
  const body = await api.get<{ cats?: CatSummary[]; bodegas?: BodegaSummary[] }>('/api/search/nearby', {
    query: { lat: String(cluster.lat), lng: String(cluster.lng), radius: '0.05', type: tab, per_page: '50' },
  });
  const items: (CatSummary | BodegaSummary)[] = (tab === 'cats' ? body.cats : body.bodegas) ?? [];
  const item = items.find((i) => i.id === cluster.id);
  return item ? toMapLocation(tab, item, false) : null;
}

type Open = { cluster: Cluster; location: MapLocation | null };

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
  const [moved, setMoved] = useState(false);
  const [open, setOpen] = useState<Open | null>(null);
  const openRef = useRef(open);
  openRef.current = open;
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const { view, failed, lastChange } = useMapClusters(state, camera);
  const tab = state.tab;

  // Marker events read the newest props through this ref: the markers outlive renders.
  const handlers = useRef({ select: (_c: Cluster) => {}, hover: (_c: Cluster, _on: boolean) => {} });
  handlers.current = {
    select(cluster) {
      if (!map) return;
      if (cluster.count > 1 || cluster.id === undefined) {
        setOpen(null);
        // Zoomed in all the way, the items share one spot (a shop's cats): the list shows them.
        if (map.getZoom() >= MAX_CLUSTER_ZOOM - 0.01 && onSearchArea) {
          const d = SPOT_DEGREES;
          onSearchArea({
            west: cluster.lng - d,
            south: cluster.lat - d,
            east: cluster.lng + d,
            north: cluster.lat + d,
          });
          return;
        }
        const zoom = Math.min(MAX_CLUSTER_ZOOM, Math.max(map.getZoom() + 2, Math.ceil(map.getZoom())));
        map.easeTo({ center: [cluster.lng, cluster.lat], zoom }, { byUser: true });
        return;
      }
      const key = keyOf(tab, cluster);
      const known = locations.find((l) => l.key === key) ?? null;
      setOpen({ cluster, location: known });
      if (!known)
        void locationOf(tab, cluster).then(
          (location) => setOpen((o) => (o?.cluster === cluster ? { cluster, location } : o)),
          () => {},
        );
    },
    hover(cluster, on) {
      const key = keyOf(tab, cluster);
      if (key) onHighlight(on ? key : null);
    },
  };

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const start = area ?? CITY_BOX;
    const created = openStreetMap({
      container: element,
      style: styleUrl,
      bounds: [start.west, start.south, start.east, start.north],
      fitBoundsOptions: { padding: 8 },
      attributionControl: { compact: false },
      title: 'Street map. Arrow keys pan, plus and minus zoom; the list beside it has every result.',
      onStyled(map) {
        setMap(map);
        setCamera(cameraOf(map));
      },
      onFail,
    });
    if (!created) return;
    created.on('moveend', (event: { originalEvent?: Event; byUser?: boolean }) => {
      setCamera(cameraOf(created));
      if (event.originalEvent || event.byUser) setMoved(true);
    });
    // An open card follows its point while the map moves.
    created.on('move', () => openRef.current && redraw());
    return () => created.remove();
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
    const bumped = lastChange && Date.now() - lastChange.at < BUMP_MS ? lastChange : null;
    for (const cluster of view.answer.clusters) {
      const button = document.createElement('button');
      button.type = 'button';
      const single = cluster.count === 1;
      button.className = `cluster cluster--${tab === 'cats' ? 'cat' : 'bodega'}${single ? ' cluster--single' : ''}`;
      if (bumped && sameCellAs(view, cluster, bumped.lat, bumped.lng))
        button.classList.add('cluster--bumped');
      const dot = document.createElement('span');
      dot.className = 'cluster__dot';
      dot.textContent = single ? '' : String(cluster.count);
      dot.setAttribute('aria-hidden', 'true');
      button.append(dot);
      button.setAttribute('aria-label', clusterLabel(cluster, tab));
      // Bigger clusters, bigger circles (28..56 px), by digits so neighbours stay comparable.
      button.style.setProperty(
        '--cluster-size',
        `${single ? 18 : 28 + 7 * Math.min(4, String(cluster.count).length - 1)}px`,
      );
      button.addEventListener('click', (event) => {
        event.stopPropagation();
        handlers.current.select(cluster);
      });
      for (const [name, on] of [
        ['mouseenter', true],
        ['mouseleave', false],
        ['focus', true],
        ['blur', false],
      ] as const)
        button.addEventListener(name, () => handlers.current.hover(cluster, on));
      const key = keyOf(tab, cluster);
      if (key) markers.current.set(key, button);
      made.push(new maplibregl.Marker({ element: button }).setLngLat([cluster.lng, cluster.lat]).addTo(map));
    }
    return () => made.forEach((m) => m.remove());
  }, [map, view, tab, lastChange]);

  // Hover sync: the highlighted result's own marker, or a pin where it is when it is inside a cluster.
  useEffect(() => {
    const button = highlightedKey ? markers.current.get(highlightedKey) : undefined;
    button?.classList.add('cluster--active');
    const location = locations.find((l) => l.key === highlightedKey);
    if (button || !map || !location) return () => button?.classList.remove('cluster--active');
    const pin = document.createElement('div');
    pin.className = `street-map__pin street-map__pin--${location.type}`;
    pin.setAttribute('aria-hidden', 'true');
    const marker = new maplibregl.Marker({ element: pin })
      .setLngLat([location.longitude, location.latitude])
      .addTo(map);
    return () => void marker.remove();
  }, [map, view, highlightedKey, locations]);

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

  const card = open && map ? map.project([open.cluster.lng, open.cluster.lat]) : null;
  return (
    <div className="street-map" onKeyDown={(e) => e.key === 'Escape' && setOpen(null)}>
      <div ref={container} className="street-map__canvas" onClick={() => setOpen(null)} />
      {moved && onSearchArea && camera && (
        <button
          type="button"
          className="button button--primary button--small street-map__search-area"
          onClick={() => {
            setMoved(false);
            onSearchArea(camera.box);
          }}
        >
          Search this area
        </button>
      )}
      <p className="street-map__status" role="status">
        {failed
          ? 'The map could not load its counts. Move the map to try again.'
          : view
            ? `${view.answer.total} ${tab === 'cats' ? 'cats' : 'bodegas'} in view`
            : ''}
      </p>
      {open &&
        card &&
        (open.location ? (
          <InfoCard
            location={open.location}
            x={card.x}
            y={card.y}
            containerWidth={container.current?.clientWidth ?? 0}
            onMouseEnter={() => {}}
            onMouseLeave={() => {}}
          />
        ) : null)}
      <MapLegend showUser={userLocation !== null} />
    </div>
  );
}
