// Loads a bodega with its cats and keeps both current from the live stream: edits, ratings, cats
// added or removed, and new primary photos of its cats.
import type { BodegaDetail, CatSummary } from '../../../lib/catalogue.ts';
import { useLiveDetail, type DetailState, type LiveEvent } from '../../items/hooks/use-live-detail.ts';
import { getBodega } from '../api/get-bodega.ts';

export type BodegaDetailState = DetailState<{ bodega: BodegaDetail; cats: CatSummary[] }>;

export function useBodegaDetail(id: number): BodegaDetailState & { reload(): void } {
  return useLiveDetail(id, bodegaDetail);
}

type Ready = Extract<BodegaDetailState, { status: 'ready' }>;

function updateCat(state: Ready, id: number, change: (cat: CatSummary) => CatSummary): Ready {
  if (!state.cats.some((c) => c.id === id)) return state;
  return { ...state, cats: state.cats.map((c) => (c.id === id ? change(c) : c)) };
}

function applyLive(state: Ready, message: LiveEvent): BodegaDetailState {
  const { bodega } = state;
  switch (message.type) {
    case 'bodega.updated':
      return message.data.id === bodega.id ? { ...state, bodega: { ...bodega, ...message.data } } : state;
    case 'bodega.deleted':
      return message.data.id === bodega.id ? { status: 'missing' } : state;
    case 'cat.added': {
      const cat = message.data;
      if (cat.bodega_id !== bodega.id || state.cats.some((c) => c.id === cat.id)) return state;
      return { ...state, cats: [...state.cats, cat], bodega: { ...bodega, cat_count: bodega.cat_count + 1 } };
    }
    case 'cat.updated':
      return updateCat(state, message.data.id, (c) => ({ ...c, ...message.data }));
    case 'cat.deleted': {
      if (!state.cats.some((c) => c.id === message.data.id)) return state;
      const cats = state.cats.filter((c) => c.id !== message.data.id);
      return { ...state, cats, bodega: { ...bodega, cat_count: Math.max(0, bodega.cat_count - 1) } };
    }
    case 'rating.updated': {
      const { target_type, target_id, rating, review_count } = message.data;
      if (target_type === 'bodega')
        return target_id === bodega.id ? { ...state, bodega: { ...bodega, rating, review_count } } : state;
      return updateCat(state, target_id, (c) => ({ ...c, rating, review_count }));
    }
    default:
      return applyCatPhoto(state, message);
  }
}

/** Photo messages carry the target's primary photo as it now stands: a listed cat's card follows. */
function applyCatPhoto(state: Ready, message: LiveEvent): Ready {
  if (message.type !== 'photo.ready' && message.type !== 'photo.primary' && message.type !== 'photo.deleted')
    return state;
  const { target_type, target_id, primary_photo, primary_thumb } = message.data;
  if (target_type !== 'cat') return state;
  return updateCat(state, target_id, (c) => ({ ...c, primary_photo, primary_thumb }));
}

const bodegaDetail = { read: getBodega, applyLive, failure: 'Failed to load bodega details' };
