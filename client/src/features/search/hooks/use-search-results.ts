import { useCallback, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { fetchSearchPage, type SearchPage } from '../api/search.ts';
import { failureMessage } from '../model/errors.ts';
import { applyLiveMessage, type SearchResults } from '../model/results.ts';
import { searchRequest, type Coordinates } from '../model/search-request.ts';
import type { SearchState } from '../model/search-state.ts';
import { useLiveEvents } from '../../live/use-live-events.ts';

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

function toResults(page: SearchPage): SearchResults {
  const { total, page: current, pages, total_exact } = page.pagination;
  const counts = { total, totalExact: total_exact, page: current, pages };
  return page.kind === 'cats'
    ? { kind: 'cats', items: page.items, ...counts }
    : { kind: 'bodegas', items: page.items, ...counts };
}

function appendPage(results: SearchResults, page: SearchPage): SearchResults {
  const next = toResults(page);
  if (results.kind !== next.kind) return next;
  const seen = new Set(results.items.map((item) => item.id));
  const fresh = next.items.filter((item) => !seen.has(item.id));
  return { ...next, items: [...results.items, ...fresh] } as SearchResults;
}

function errorPrefix(state: SearchState): string {
  return state.tab === 'cats' ? 'Failed to search cats: ' : 'Failed to search bodegas: ';
}

/** Runs the search the URL describes (debounced), pages through it, and keeps it live. */
export function useSearchResults({ state, location, radiusKm, enabled, delayMs }: Options) {
  const [results, setResults] = useState<SearchResults | null>(null);
  const [status, setStatus] = useState<SearchStatus>('idle');
  const [loadingMore, setLoadingMore] = useState(false);
  const [runs, setRuns] = useState(0);
  const sequence = useRef(0);
  const request = searchRequest(state, location, 1, radiusKm);
  const key = JSON.stringify(request);
  const latest = useRef({ state, location, radiusKm, delayMs });
  latest.current = { state, location, radiusKm, delayMs };

  useEffect(() => {
    if (!enabled) return;
    const id = ++sequence.current;
    const { state: current, location: at, radiusKm: radius } = latest.current;
    const timer = setTimeout(() => {
      setStatus('loading');
      fetchSearchPage(searchRequest(current, at, 1, radius), current.tab)
        .then((page) => {
          if (id !== sequence.current) return;
          setResults(toResults(page));
          setStatus('loaded');
        })
        .catch((error: unknown) => {
          if (id !== sequence.current) return;
          setStatus('error');
          toast.error(failureMessage(errorPrefix(current), error));
        });
    }, latest.current.delayMs());
    return () => clearTimeout(timer);
  }, [key, enabled, runs]);

  const loadMore = useCallback(() => {
    if (!results || results.page >= results.pages) return;
    const id = sequence.current;
    const { state: current, location: at, radiusKm: radius } = latest.current;
    setLoadingMore(true);
    fetchSearchPage(searchRequest(current, at, results.page + 1, radius), current.tab)
      .then((page) => {
        if (id === sequence.current) setResults((prev) => (prev ? appendPage(prev, page) : toResults(page)));
      })
      .catch((error: unknown) => toast.error(failureMessage(errorPrefix(current), error)))
      .finally(() => setLoadingMore(false));
  }, [results]);

  /** Run the current search again now (Search button, a live reset, 'show new cats'). */
  const rerun = useCallback(() => setRuns((n) => n + 1), []);

  useLiveEvents((message) => {
    if (message.type === 'reset') {
      rerun();
      return;
    }
    setResults((prev) => (prev ? applyLiveMessage(prev, message) : prev));
  });

  return { results, status, loadingMore, loadMore, rerun };
}
