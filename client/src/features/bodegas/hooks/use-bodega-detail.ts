// A bodega with its cats, kept current from the live stream (features/live/cache-updates.ts):
// edits, ratings, cats added or removed, and new primary photos of its cats.
import type { BodegaDetail, CatSummary } from '../../../lib/catalogue.ts';
import { useLiveDetail, type DetailState } from '../../items/index.ts';
import { bodegaQuery } from '../api/get-bodega.ts';

export type BodegaDetailState = DetailState<{ bodega: BodegaDetail; cats: CatSummary[] }>;

export function useBodegaDetail(id: number): BodegaDetailState & { reload(): void } {
  return useLiveDetail(id, bodegaQuery, 'Failed to load bodega details');
}
