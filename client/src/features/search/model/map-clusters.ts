// The street map's clusters (API.md "Map at city scale"): the request for a visible box, and live
// items added to or taken from the cluster of their grid cell without asking the server again.
import type { Cluster, MapAnswer } from '../../../../../contract/map.ts';
import { EXACT_ZOOM, answerLevel, cellSize, type Box } from '../../../../../contract/map-grid.ts';
import { bodegaFilterParams, catFilterParams } from './filters.ts';
import type { SearchState } from './search-state.ts';

export type { Box } from '../../../../../contract/map-grid.ts';
export type { Cluster, MapAnswer } from '../../../../../contract/map.ts';

/** Clusters shown for a box at a zoom (the zoom the server answered for). */
export type ClusterView = { box: Box; answer: MapAnswer };

export function inBox(box: Box, lat: number, lng: number): boolean {
  return lng >= box.west && lng <= box.east && lat >= box.south && lat <= box.north;
}

/** The GET /api/map query for the screen's tab, text and filters in a box. */
export function clusterQuery(state: SearchState, box: Box, zoom: number): Record<string, string> {
  const query: Record<string, string> = {
    west: String(box.west),
    south: String(box.south),
    east: String(box.east),
    north: String(box.north),
    zoom: String(Math.max(0, Math.min(20, Math.floor(zoom)))),
    type: state.tab,
  };
  const q = state.q.trim();
  if (q) query.q = q;
  const filters = state.tab === 'cats' ? catFilterParams(state.cat) : bodegaFilterParams(state.bodega);
  return { ...query, ...filters };
}

/** The cell the server puts a point in for this view (each distinct location from EXACT_ZOOM). */
function cellKey(view: ClusterView, lat: number, lng: number): string {
  if (view.answer.zoom >= EXACT_ZOOM) return `${lat} ${lng}`;
  const size = cellSize(answerLevel(view.box, view.answer.zoom));
  return `${Math.floor(lng / size)} ${Math.floor(lat / size)}`;
}

/** Whether a point falls in the cell of a cluster of this view. */
export function sameCellAs(view: ClusterView, cluster: Cluster, lat: number, lng: number): boolean {
  // A cluster's mean lies in the cell of its items (cells are convex), so it names the cell.
  return cellKey(view, cluster.lat, cluster.lng) === cellKey(view, lat, lng);
}

/** A live item inside the box: it joins its cell's cluster, or becomes one of its own. */
export function addToClusters(
  view: ClusterView,
  item: { id: number; name: string; lat: number; lng: number },
): ClusterView {
  const { lat, lng } = item;
  if (!inBox(view.box, lat, lng)) return view;
  const index = view.answer.clusters.findIndex((c) => sameCellAs(view, c, lat, lng));
  const clusters = [...view.answer.clusters];
  if (index === -1) clusters.push({ lat, lng, count: 1, id: item.id, name: item.name });
  else {
    const old = clusters[index]!;
    const count = old.count + 1;
    clusters[index] = {
      lat: (old.lat * old.count + lat) / count,
      lng: (old.lng * old.count + lng) / count,
      count,
    };
  }
  return { box: view.box, answer: { ...view.answer, total: view.answer.total + 1, clusters } };
}

/**
 * A deleted item leaves its cell's cluster. Its own cluster goes; a larger one keeps its place
 * (the others' mean is not known without it exactly enough to matter on screen) and, left with
 * one item it cannot name, stays a cluster that zooms in.
 */
export function removeFromClusters(
  view: ClusterView,
  item: { id: number; lat: number; lng: number },
): ClusterView {
  const { lat, lng } = item;
  if (!inBox(view.box, lat, lng)) return view;
  const index = view.answer.clusters.findIndex(
    (c) => (c.count === 1 && c.id !== undefined ? c.id === item.id : true) && sameCellAs(view, c, lat, lng),
  );
  if (index === -1) return view;
  const clusters = [...view.answer.clusters];
  const old = clusters[index]!;
  if (old.count === 1) clusters.splice(index, 1);
  else clusters[index] = { lat: old.lat, lng: old.lng, count: old.count - 1 };
  return { box: view.box, answer: { ...view.answer, total: view.answer.total - 1, clusters } };
}

/** The accessible name of a cluster's button. */
export function clusterLabel(cluster: Cluster, tab: SearchState['tab']): string {
  if (cluster.count === 1 && cluster.name) return cluster.name;
  const noun =
    tab === 'cats' ? (cluster.count === 1 ? 'cat' : 'cats') : cluster.count === 1 ? 'bodega' : 'bodegas';
  return `${cluster.count} ${noun} near here`;
}
