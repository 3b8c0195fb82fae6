// What both street-scale maps (MapLibre without a key, Google with one) draw for a cluster and do
// when it is clicked, so the two show the same buttons with the same names and behave alike.
import type { MapLocation } from '../components/map/types.ts';
import { clusterLabel, sameCellAs, type Box, type Cluster, type ClusterView } from './map-clusters.ts';
import type { SearchState } from './search-state.ts';

/** Zooming into a cluster stops here: every location is its own cluster from zoom 17. */
export const MAX_CLUSTER_ZOOM = 17;
/** How long after a live change its cluster still plays the bump. */
export const BUMP_MS = 1200;
/** Half the side of the box around one spot (about 10 m). */
const SPOT_DEGREES = 0.0001;

/** A live change, for the bump of its cluster. */
export type Bump = { lat: number; lng: number; at: number };

/** The result key (as the list uses) of a cluster that is a single named item, else null. */
export function clusterKey(tab: SearchState['tab'], cluster: Cluster): string | null {
  if (cluster.count !== 1 || cluster.id === undefined) return null;
  return `${tab === 'cats' ? 'cat' : 'bodega'}-${cluster.id}`;
}

/** Everything a cluster's button shows: its name, class, the number in its circle and its size. */
export type ClusterMarker = {
  key: string | null;
  label: string;
  className: string;
  text: string;
  size: string;
};

export function clusterMarker(
  cluster: Cluster,
  tab: SearchState['tab'],
  options: { view: ClusterView; bump?: Bump | null; now?: number },
): ClusterMarker {
  const single = cluster.count === 1;
  const { view, bump, now = Date.now() } = options;
  const bumped = !!bump && now - bump.at < BUMP_MS && sameCellAs(view, cluster, bump.lat, bump.lng);
  const classes = ['cluster', `cluster--${tab === 'cats' ? 'cat' : 'bodega'}`];
  if (single) classes.push('cluster--single');
  if (bumped) classes.push('cluster--bumped');
  return {
    key: clusterKey(tab, cluster),
    label: clusterLabel(cluster, tab),
    className: classes.join(' '),
    text: single ? '' : String(cluster.count),
    // Bigger clusters, bigger circles (28..56 px), by digits so neighbours stay comparable.
    size: `${single ? 18 : 28 + 7 * Math.min(4, String(cluster.count).length - 1)}px`,
  };
}

/** What a click on a cluster does, at the map's zoom (in the clusters' zoom levels). */
export type ClusterAction =
  | { kind: 'open' }
  | { kind: 'zoom'; center: { lat: number; lng: number }; zoom: number }
  | { kind: 'spot'; box: Box };

export function clusterAction(cluster: Cluster, zoom: number, canSearchArea: boolean): ClusterAction {
  if (cluster.count === 1 && cluster.id !== undefined) return { kind: 'open' };
  // Zoomed in all the way, the items share one spot (a shop's cats): the list shows them.
  if (zoom >= MAX_CLUSTER_ZOOM - 0.01 && canSearchArea) {
    const d = SPOT_DEGREES;
    return {
      kind: 'spot',
      box: { west: cluster.lng - d, south: cluster.lat - d, east: cluster.lng + d, north: cluster.lat + d },
    };
  }
  const target = Math.min(MAX_CLUSTER_ZOOM, Math.max(zoom + 2, Math.ceil(zoom)));
  return { kind: 'zoom', center: { lat: cluster.lat, lng: cluster.lng }, zoom: target };
}

/**
 * The highlighted result as the map shows it: its own cluster's key when it is a single marker,
 * else the location to pin (it sits inside a larger cluster, or outside the view's answer).
 */
export function highlightOf(
  view: ClusterView | null,
  tab: SearchState['tab'],
  highlightedKey: string | null,
  locations: MapLocation[],
): { marker: string | null; pin: MapLocation | null } {
  if (!highlightedKey) return { marker: null, pin: null };
  if (view?.answer.clusters.some((c) => clusterKey(tab, c) === highlightedKey))
    return { marker: highlightedKey, pin: null };
  return { marker: null, pin: locations.find((l) => l.key === highlightedKey) ?? null };
}
