// Loads a cat with its bodega and keeps both current from the live stream: edits, ratings and a
// deletion show up on the open page without a reload.
import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { ApiError } from '../../../lib/api.ts';
import type { BodegaSummary, CatDetail } from '../../../lib/catalogue.ts';
import { useLiveCatchUp } from '../../../hooks/use-live-catch-up.ts';
import { useLiveEvents } from '../../live/use-live-events.ts';
import type { LiveMessage } from '../../live/types.ts';
import { getCat } from '../api/get-cat.ts';

export type CatDetailState =
  | { status: 'loading' }
  | { status: 'missing' }
  | { status: 'failed' }
  | { status: 'ready'; cat: CatDetail; bodega: BodegaSummary };

export function useCatDetail(id: number): CatDetailState & { reload(): void } {
  const [state, setState] = useState<CatDetailState>({ status: 'loading' });

  const load = useCallback(
    async (quiet: boolean) => {
      if (!Number.isInteger(id) || id <= 0) return setState({ status: 'missing' });
      if (!quiet) setState({ status: 'loading' });
      try {
        const { cat, bodega } = await getCat(id);
        setState({ status: 'ready', cat, bodega });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return setState({ status: 'missing' });
        // A quiet refresh that fails leaves the page as it was.
        if (quiet) return;
        toast.error('Failed to load cat details');
        setState({ status: 'failed' });
      }
    },
    [id],
  );

  useEffect(() => {
    void load(false);
  }, [load]);

  useLiveCatchUp(() => void load(true));
  useLiveEvents((message) => {
    if (message.type === 'reset') return void load(true);
    setState((current) => (current.status === 'ready' ? applyLive(current, message) : current));
  });

  return { ...state, reload: () => void load(false) };
}

type Ready = Extract<CatDetailState, { status: 'ready' }>;

function applyLive(state: Ready, message: Exclude<LiveMessage, { type: 'reset' }>): CatDetailState {
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
