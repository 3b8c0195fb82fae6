// The behaviour both street-scale maps share around their clusters: the clusters of the camera's
// box (useMapClusters), whether the user has moved the map since the list's area was searched,
// and what a click or a hover on a cluster does: zoom in, list a spot's items, or open a single
// item's card. Each map supplies only how to read its zoom and how to move its camera.
import { useRef, useState } from 'react';
import { getSpotItems } from '../../api/get-spot-items.ts';
import { useMapClusters, type Camera } from '../../hooks/use-map-clusters.ts';
import { clusterAction, clusterKey } from '../../model/cluster-markers.ts';
import type { Box, Cluster } from '../../model/map-clusters.ts';
import { toMapLocation } from '../../model/map-locations.ts';
import type { SearchState } from '../../model/search-state.ts';
import type { MapLocation } from './types.ts';

/** A single item's card data, from the items around its point. */
async function locationOf(tab: SearchState['tab'], cluster: Cluster): Promise<MapLocation | null> {
  const item = (await getSpotItems(tab, cluster)).find((i) => i.id === cluster.id);
  return item ? toMapLocation(tab, item, false) : null;
}

/** A single item's open card; its location is null while it is being read. */
export type OpenCard = { cluster: Cluster; location: MapLocation | null };

/** What a map lets the shared behaviour do with it; zooms are in the clusters' levels. */
export type ClusterMapCamera = {
  zoom(): number;
  zoomTo(center: { lat: number; lng: number }, zoom: number): void;
};

type Options = {
  state: SearchState;
  camera: Camera | null;
  /** The current results: a single item among them opens its card without a read. */
  locations: MapLocation[];
  onHighlight(key: string | null): void;
  onSearchArea?(box: Box): void;
  /** The map's camera, once there is a map. */
  moves: ClusterMapCamera | null;
};

export function useClusterMap({ state, camera, locations, onHighlight, onSearchArea, moves }: Options) {
  const { view, failed, lastChange } = useMapClusters(state, camera);
  const [moved, setMoved] = useState(false);
  const [open, setOpen] = useState<OpenCard | null>(null);
  const tab = state.tab;

  function select(cluster: Cluster) {
    if (!moves) return;
    const action = clusterAction(cluster, moves.zoom(), onSearchArea !== undefined);
    if (action.kind === 'spot') {
      setOpen(null);
      onSearchArea?.(action.box);
      return;
    }
    if (action.kind === 'zoom') {
      setOpen(null);
      // The user asked for this view: it may be searched.
      setMoved(true);
      moves.zoomTo(action.center, action.zoom);
      return;
    }
    const key = clusterKey(tab, cluster);
    const known = locations.find((l) => l.key === key) ?? null;
    setOpen({ cluster, location: known });
    if (!known)
      void locationOf(tab, cluster).then(
        (location) => setOpen((o) => (o?.cluster === cluster ? { cluster, location } : o)),
        () => {},
      );
  }

  function hover(cluster: Cluster, on: boolean) {
    const key = clusterKey(tab, cluster);
    if (key) onHighlight(on ? key : null);
  }

  /** "Search this area": the list is limited to the box in view. */
  function searchArea() {
    if (!camera || !onSearchArea) return;
    setMoved(false);
    onSearchArea(camera.box);
  }

  // Markers outlive renders (MapLibre's) or are memoised (Google's): they call these stable
  // functions, which run the newest behaviour.
  const latest = useRef({ select, hover });
  latest.current = { select, hover };
  const [stable] = useState(() => ({
    select: (cluster: Cluster) => latest.current.select(cluster),
    hover: (cluster: Cluster, on: boolean) => latest.current.hover(cluster, on),
    markMoved: () => setMoved(true),
    close: () => setOpen(null),
  }));

  return {
    ...stable,
    view,
    failed,
    lastChange,
    /** "Search this area" is offered: the map moved and the screen can limit its list. */
    offerArea: moved && onSearchArea !== undefined && camera !== null,
    open,
    searchArea,
  };
}
