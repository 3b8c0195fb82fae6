// Which endpoint a search calls and with what: the text search of the active tab within the
// searched map area when there is one, nearby when the user's position is known, otherwise the
// text search over everything.
import { bodegaFilterParams, catFilterParams } from './filters.ts';
import type { Coordinates } from '../../../lib/coordinates.ts';
import type { SearchState } from './search-state.ts';

export const NEARBY_RADIUS_KM = 10;
export const PAGE_SIZE = 20;

export type SearchRequest = { path: string; query: Record<string, string> };

export function searchRequest(
  state: SearchState,
  location: Coordinates | null,
  page = 1,
  radiusKm = NEARBY_RADIUS_KM,
): SearchRequest {
  const filters = state.tab === 'cats' ? catFilterParams(state.cat) : bodegaFilterParams(state.bodega);
  const query: Record<string, string> = {};
  const q = state.q.trim();
  if (q) query.q = q;
  Object.assign(query, filters);
  if (page > 1) query.page = String(page);
  query.per_page = String(PAGE_SIZE);
  // A searched map area is what the user looks at: it comes before their own position.
  if (state.area) {
    const { west, south, east, north } = state.area;
    Object.assign(query, {
      west: String(west),
      south: String(south),
      east: String(east),
      north: String(north),
    });
    return { path: `/api/search/${state.tab}`, query };
  }
  if (!location) return { path: `/api/search/${state.tab}`, query };
  return {
    path: '/api/search/nearby',
    query: {
      lat: String(location.lat),
      lng: String(location.lng),
      radius: String(radiusKm),
      type: state.tab,
      ...query,
    },
  };
}
