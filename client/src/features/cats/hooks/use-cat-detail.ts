// A cat with its bodega, kept current from the live stream (features/live/cache-updates.ts): edits,
// ratings and a deletion show up on the open page without a reload.
import type { BodegaSummary, CatDetail } from '../../../lib/catalogue.ts';
import { useLiveDetail, type DetailState } from '../../items/index.ts';
import { catQuery } from '../api/get-cat.ts';

export type CatDetailState = DetailState<{ cat: CatDetail; bodega: BodegaSummary }>;

export function useCatDetail(id: number): CatDetailState & { reload(): void } {
  return useLiveDetail(id, catQuery, 'Failed to load cat details');
}
