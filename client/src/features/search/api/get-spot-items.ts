import { api } from '../../../lib/api.ts';
import type { BodegaSummary, CatSummary } from '../../../lib/catalogue.ts';
import type { NearbyList } from '../../../../../contract/search.ts';
import type { SearchTab } from '../model/search-state.ts';

/**
 * The cats or bodegas within 50 m of a point (GET /api/search/nearby): a map's single item read
 * for its card, a plain read unlike opening its page.
 */
export async function getSpotItems(
  tab: SearchTab,
  at: { lat: number; lng: number },
): Promise<(CatSummary | BodegaSummary)[]> {
  const body = await api.get<NearbyList>('/api/search/nearby', {
    query: { lat: String(at.lat), lng: String(at.lng), radius: '0.05', type: tab, per_page: '50' },
  });
  return (tab === 'cats' ? body.cats : body.bodegas) ?? [];
}
