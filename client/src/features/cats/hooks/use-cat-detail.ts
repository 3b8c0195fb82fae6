// Loads a cat with its bodega and keeps both current from the live stream: edits, ratings and a
// deletion show up on the open page without a reload.
import type { BodegaSummary, CatDetail } from '../../../lib/catalogue.ts';
import { useLiveDetail, type DetailState, type LiveEvent } from '../../items/hooks/use-live-detail.ts';
import { getCat } from '../api/get-cat.ts';

export type CatDetailState = DetailState<{ cat: CatDetail; bodega: BodegaSummary }>;

export function useCatDetail(id: number): CatDetailState & { reload(): void } {
  return useLiveDetail(id, catDetail);
}

type Ready = Extract<CatDetailState, { status: 'ready' }>;

function applyLive(state: Ready, message: LiveEvent): CatDetailState {
  const { cat, bodega } = state;
  switch (message.type) {
    case 'cat.updated':
      return message.data.id === cat.id ? { ...state, cat: { ...cat, ...message.data } } : state;
    case 'cat.deleted':
      return message.data.id === cat.id ? { status: 'missing' } : state;
    case 'bodega.updated': {
      if (message.data.id !== bodega.id) return state;
      const next = { ...bodega, ...message.data };
      return { ...state, bodega: next, cat: { ...cat, bodega_name: next.name, address: next.address } };
    }
    case 'bodega.deleted':
      return message.data.id === bodega.id ? { status: 'missing' } : state;
    case 'rating.updated': {
      const { target_type, target_id, rating, review_count } = message.data;
      if (target_type === 'cat' && target_id === cat.id)
        return { ...state, cat: { ...cat, rating, review_count } };
      if (target_type === 'bodega' && target_id === bodega.id)
        return { ...state, bodega: { ...bodega, rating, review_count } };
      return state;
    }
    default:
      return state;
  }
}

const catDetail = { read: getCat, applyLive, failure: 'Failed to load cat details' };
