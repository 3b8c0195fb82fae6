// What the map plots: the results that have coordinates, plus cats and bodegas that arrived on
// the live stream since (marked new).
import type { BodegaSummary, CatSummary } from '../../../lib/catalogue.ts';
import type { MapLocation } from '../components/map/types.ts';
import type { SearchResults } from './results.ts';
import type { SearchTab } from './search-state.ts';

type Plottable = { latitude: number | null; longitude: number | null };

function hasCoordinates<T extends Plottable>(item: T): item is T & { latitude: number; longitude: number } {
  return (
    typeof item.latitude === 'number' &&
    typeof item.longitude === 'number' &&
    Number.isFinite(item.latitude) &&
    Number.isFinite(item.longitude)
  );
}

function catLocation(cat: CatSummary, isNew: boolean): MapLocation | null {
  if (!hasCoordinates(cat)) return null;
  return {
    key: `cat-${cat.id}`,
    type: 'cat',
    id: cat.id,
    name: cat.name,
    address: cat.address,
    latitude: cat.latitude,
    longitude: cat.longitude,
    rating: cat.rating,
    isNew,
  };
}

function bodegaLocation(bodega: BodegaSummary, isNew: boolean): MapLocation | null {
  if (!hasCoordinates(bodega)) return null;
  return {
    key: `bodega-${bodega.id}`,
    type: 'bodega',
    id: bodega.id,
    name: bodega.name,
    address: bodega.address,
    latitude: bodega.latitude,
    longitude: bodega.longitude,
    rating: bodega.rating,
    isNew,
  };
}

/** One cat or bodega as a map location, or null without coordinates. */
export function toMapLocation(
  tab: SearchTab,
  item: CatSummary | BodegaSummary,
  isNew: boolean,
): MapLocation | null {
  return tab === 'cats'
    ? catLocation(item as CatSummary, isNew)
    : bodegaLocation(item as BodegaSummary, isNew);
}

export function toMapLocations(
  tab: SearchTab,
  results: SearchResults | null,
  liveCats: CatSummary[],
  liveBodegas: BodegaSummary[],
): MapLocation[] {
  const located: (MapLocation | null)[] = [];
  if (results?.kind === 'cats' && tab === 'cats')
    located.push(...results.items.map((c) => catLocation(c, false)));
  if (results?.kind === 'bodegas' && tab === 'bodegas') {
    located.push(...results.items.map((b) => bodegaLocation(b, false)));
  }
  if (tab === 'cats') located.push(...liveCats.map((c) => catLocation(c, true)));
  if (tab === 'bodegas') located.push(...liveBodegas.map((b) => bodegaLocation(b, true)));
  const seen = new Set<string>();
  return located.filter((l): l is MapLocation => {
    if (!l || seen.has(l.key)) return false;
    seen.add(l.key);
    return true;
  });
}

/** How many of the tab's results have no coordinates (the map says so below its list). */
export function unplottedCount(results: SearchResults | null, tab: SearchTab): number {
  if (!results || results.kind !== tab) return 0;
  const items: Plottable[] = results.items;
  return items.filter((item) => item.latitude === null || item.longitude === null).length;
}
