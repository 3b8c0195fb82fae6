import type { Coordinates } from '../../../../lib/coordinates.ts';
import type { Box } from '../../model/map-clusters.ts';
import type { SearchState } from '../../model/search-state.ts';

export type LocationType = 'cat' | 'bodega';

/** A point a map plots: a cat (at its bodega) or a bodega. */
export type MapLocation = {
  key: string;
  type: LocationType;
  id: number;
  name: string;
  address: string;
  latitude: number;
  longitude: number;
  rating: number;
  /** Arrived on the live stream since the results loaded. */
  isNew?: boolean;
};

export type MapViewProps = {
  locations: MapLocation[];
  userLocation: Coordinates | null;
  highlightedKey: string | null;
  onHighlight(key: string | null): void;
  onMarkerClick(location: MapLocation): void;
  /** Results that have no coordinates and so are not plotted. */
  unplottedCount?: number;
  /** A place picked in the map's own search box (only maps that have one call this). */
  onPlacePicked?(address: string, position: Coordinates): void;
};

/** A map that shows the whole city's clusters for its view (MapLibre's or Google's). */
export type ClusterMapProps = MapViewProps & {
  state: SearchState;
  /** The box the list is limited to ("Search this area"), if any. */
  area: Box | null;
  onSearchArea?(box: Box): void;
};

/** Midtown Manhattan: the first view of a map when the URL names no area. */
export const DEFAULT_CENTER: Coordinates = { lat: 40.7549, lng: -73.984 };
/** In Google's levels (256-pixel tiles). */
export const DEFAULT_ZOOM = 12;
/** The same view on the street map, whose levels count 512-pixel tiles: one level lower. */
export const STREET_DEFAULT_ZOOM = DEFAULT_ZOOM - 1;
export const PLACE_ZOOM = 15;

export const TYPE_LABEL: Record<LocationType, string> = { cat: 'Cat', bodega: 'Bodega' };

export function detailPath(location: Pick<MapLocation, 'type' | 'id'>): string {
  return `/${location.type}/${location.id}`;
}

/** Opens a detail page in a new tab (hash routes: the path goes after '#'). */
export function openDetailsInNewTab(location: Pick<MapLocation, 'type' | 'id'>): void {
  const url = `${window.location.pathname}${window.location.search}#${detailPath(location)}`;
  window.open(url, '_blank', 'noopener');
}
