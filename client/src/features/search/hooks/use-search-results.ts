// Runs the search the URL describes (debounced), pages through it, and keeps it live: the pages sit
// in the query cache, which the live stream updates (features/live/cache-updates.ts).
import { keepPreviousData, useInfiniteQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { searchQuery, type SearchInputs } from '../api/search.ts';
import { failureMessage } from '../model/errors.ts';
import { combinePages, type SearchResults } from '../model/results.ts';
import { searchRequest } from '../model/search-request.ts';
import type { Coordinates } from '../../../lib/coordinates.ts';
import type { SearchState } from '../model/search-state.ts';
import { useLiveStream } from '../../live/index.ts';

export type SearchStatus = 'idle' | 'loading' | 'loaded' | 'error';

type Options = {
  state: SearchState;
  location: Coordinates | null;
  radiusKm: number;
  /** False until the search may run (backend configured, initial delay passed). */
  enabled: boolean;
  /** How long to wait before running the search the inputs now describe. */
  delayMs: () => number;
};

function errorPrefix(tab: SearchState['tab']): string {
  return tab === 'cats' ? 'Failed to search cats: ' : 'Failed to search bodegas: ';
}

/** The inputs once they have stayed put for the delay (or a rerun asked for them at once). */
function useSettledInputs(inputs: SearchInputs, enabled: boolean, delayMs: () => number, runs: number) {
  const [settled, setSettled] = useState<SearchInputs | null>(null);
  const key = JSON.stringify(searchRequest(inputs.state, inputs.location, 1, inputs.radiusKm));
  const latest = useRef({ inputs, delayMs });
  latest.current = { inputs, delayMs };
  const [settledRuns, setSettledRuns] = useState(runs);

  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(() => {
      setSettled(latest.current.inputs);
      setSettledRuns(runs);
    }, latest.current.delayMs());
    return () => clearTimeout(timer);
  }, [key, enabled, runs]);
  return { settled, settledRuns };
}

/** Reads a search's first page again, dropping the others ('run again' starts from the top). */
function useFirstPageAgain(queryKey: QueryKey | null, runs: number) {
  const client = useQueryClient();
  const done = useRef(runs);
  useEffect(() => {
    if (!queryKey || done.current === runs) return;
    done.current = runs;
    client.setQueryData<{ pages: unknown[]; pageParams: unknown[] }>(
      queryKey,
      (data) => data && { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) },
    );
    void client.refetchQueries({ queryKey, exact: true });
  }, [client, queryKey, runs]);
}

export function useSearchResults({ state, location, radiusKm, enabled, delayMs }: Options) {
  const [runs, setRuns] = useState(0);
  const { settled, settledRuns } = useSettledInputs({ state, location, radiusKm }, enabled, delayMs, runs);
  const options = searchQuery(settled ?? { state, location, radiusKm });
  const query = useInfiniteQuery({
    ...options,
    enabled: settled !== null,
    placeholderData: keepPreviousData,
  });
  useFirstPageAgain(settled ? options.queryKey : null, settledRuns);
  useLiveStream();

  // A failed search leaves what was shown before on screen.
  const combined = useMemo(() => combinePages(query.data?.pages ?? []), [query.data]);
  const [shown, setShown] = useState<SearchResults | null>(null);
  if (combined && combined !== shown) setShown(combined);

  const { error } = query;
  const tab = settled?.state.tab ?? state.tab;
  useEffect(() => {
    if (error) toast.error(failureMessage(errorPrefix(tab), error));
  }, [error, tab]);

  const loadingMore = query.isFetchingNextPage;
  const failed = query.isError && !query.isFetchNextPageError;
  const status: SearchStatus = !settled
    ? 'idle'
    : query.isFetching && !loadingMore
      ? 'loading'
      : failed
        ? 'error'
        : 'loaded';

  const { hasNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage) void fetchNextPage();
  }, [hasNextPage, fetchNextPage]);
  /** Run the current search again now (Search button, 'show new cats'). */
  const rerun = useCallback(() => setRuns((n) => n + 1), []);

  return { results: combined ?? shown, status, loadingMore, loadMore, rerun };
}
