// Loads one catalogue item's page data and keeps it current from the live stream: what the item's
// own `applyLive` makes of each message shows on the open page without a reload, a `reset` or a
// reconnection reloads quietly, and a 404 (or a deletion) turns the page into its missing state.
import { useCallback, useEffect, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { ApiError } from '../../../lib/api.ts';
import { useLiveCatchUp } from '../../../hooks/use-live-catch-up.ts';
import { useLiveEvents } from '../../live/use-live-events.ts';
import type { LiveMessage } from '../../live/types.ts';

export type DetailState<Data> =
  { status: 'loading' } | { status: 'missing' } | { status: 'failed' } | ({ status: 'ready' } & Data);

export type LiveEvent = Exclude<LiveMessage, { type: 'reset' }>;

export type LiveDetail<Data> = {
  read(id: number): Promise<Data>;
  /** The state after a live message, given the page's ready state. */
  applyLive(state: { status: 'ready' } & Data, message: LiveEvent): DetailState<Data>;
  /** The toast of a failed first load, e.g. 'Failed to load cat details'. */
  failure: string;
};

export function useLiveDetail<Data>(
  id: number,
  detail: LiveDetail<Data>,
): DetailState<Data> & { reload(): void } {
  const [state, setState] = useState<DetailState<Data>>({ status: 'loading' });
  const { read, applyLive, failure } = detail;

  const load = useCallback(
    async (quiet: boolean) => {
      if (!Number.isInteger(id) || id <= 0) return setState({ status: 'missing' });
      if (!quiet) setState({ status: 'loading' });
      try {
        const data = await read(id);
        setState({ status: 'ready', ...data });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return setState({ status: 'missing' });
        // A quiet refresh that fails leaves the page as it was.
        if (quiet) return;
        toast.error(failure);
        setState({ status: 'failed' });
      }
    },
    [id, read, failure],
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
