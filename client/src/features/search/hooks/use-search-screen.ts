// The search screen's state and what its controls do: the URL's search, the text being typed, the
// filter panel, the highlighted result, new cats and bodegas from the live stream, and when each
// change runs the search (at once, or after the filter debounce).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate } from 'react-router-dom';
import type { BodegaSummary } from '../../../lib/catalogue.ts';
import { useLiveEvents, useLiveStore } from '../../live/index.ts';
import type { MapLocation } from '../components/map/types.ts';
import {
  DEFAULT_BODEGA_FILTERS,
  DEFAULT_CAT_FILTERS,
  bodegaFilterChips,
  catFilterChips,
  type FilterChip,
  withoutBodegaFilter,
  withoutCatFilter,
} from '../model/filters.ts';
import { toMapLocations } from '../model/map-locations.ts';
import type { Box } from '../model/map-clusters.ts';
import type { SearchState, SearchTab } from '../model/search-state.ts';
import { choose, type Suggestion } from '../model/suggestions.ts';
import { useFilterOptions } from './use-filter-options.ts';
import { useGeolocation } from './use-geolocation.ts';
import { useSearchResults } from './use-search-results.ts';
import { useInitialDelayPassed, useNearbyRadius } from './use-search-setup.ts';
import { useSearchState } from './use-search-state.ts';

const FILTER_DEBOUNCE_MS = 500;
const AREA_CHIP: FilterChip = { id: 'area', label: 'In the map area' };

/** Bodegas added on the live stream since the last search (the map shows them as new). */
function useLiveBodegas() {
  const [liveBodegas, setLiveBodegas] = useState<BodegaSummary[]>([]);
  useLiveEvents((message) => {
    if (message.type === 'bodega.added') setLiveBodegas((list) => [...list, message.data]);
    if (message.type === 'bodega.deleted')
      setLiveBodegas((list) => list.filter((b) => b.id !== message.data.id));
    if (message.type === 'content.hidden' && message.data.target_type === 'bodega') {
      const hiddenId = message.data.target_id;
      setLiveBodegas((list) => list.filter((b) => b.id !== hiddenId));
    }
  });
  return [liveBodegas, setLiveBodegas] as const;
}

export function useSearchScreen() {
  const navigate = useNavigate();
  const [state, setState] = useSearchState();
  const [draft, setDraft] = useState(state.q);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [highlightedKey, setHighlightedKey] = useState<string | null>(null);
  const [liveBodegas, setLiveBodegas] = useLiveBodegas();
  const nextDelay = useRef(0);
  const ready = useInitialDelayPassed();
  const radiusKm = useNearbyRadius();
  const geo = useGeolocation();
  const filterOptions = useFilterOptions(ready);
  const newCats = useLiveStore((s) => s.newCats);
  const acknowledgeNewCats = useLiveStore((s) => s.acknowledgeNewCats);

  const delayMs = useCallback(() => {
    const delay = nextDelay.current;
    nextDelay.current = FILTER_DEBOUNCE_MS;
    return delay;
  }, []);
  const search = useSearchResults({
    state,
    location: geo.coords,
    radiusKm,
    enabled: ready,
    delayMs,
  });

  // Back/forward or a pasted link changes the query: the text box follows.
  useEffect(() => setDraft(state.q), [state.q]);

  function update(next: SearchState, delay: number, push = false) {
    nextDelay.current = delay;
    setState(next, { push });
  }

  function runNow() {
    nextDelay.current = 0;
    search.rerun();
  }

  const { results } = search;
  const shownIds = useMemo(
    () => new Set(results?.kind === 'cats' ? results.items.map((c) => c.id) : []),
    [results],
  );
  const unseenCats = useMemo(() => newCats.filter((cat) => !shownIds.has(cat.id)), [newCats, shownIds]);
  const locations: MapLocation[] = useMemo(
    () => toMapLocations(state.tab, results, unseenCats, liveBodegas),
    [state.tab, results, unseenCats, liveBodegas],
  );
  const handlePlacePicked = useCallback((address: string) => {
    setDraft(address);
    toast.success(`Searching near ${address}`);
  }, []);

  const actions = {
    submit() {
      if (draft.trim() === state.q.trim()) runNow();
      else update({ ...state, q: draft.trim() }, 0, true);
    },
    /** A cat or bodega opens its page; a breed or personality becomes the search's filter. */
    chooseSuggestion(suggestion: Suggestion) {
      const choice = choose(suggestion, state);
      if ('open' in choice) {
        void navigate(choice.open);
        return;
      }
      setDraft(choice.search.q);
      update(choice.search, 0, true);
    },
    selectTab(tab: SearchTab) {
      setHighlightedKey(null);
      update({ ...state, tab }, 0, true);
    },
    clearFilters() {
      if (state.tab === 'cats')
        update({ ...state, cat: DEFAULT_CAT_FILTERS, area: null }, FILTER_DEBOUNCE_MS);
      else update({ ...state, bodega: DEFAULT_BODEGA_FILTERS, area: null }, FILTER_DEBOUNCE_MS);
    },
    removeChip(id: string) {
      if (id === AREA_CHIP.id) update({ ...state, area: null }, 0, true);
      else if (state.tab === 'cats')
        update({ ...state, cat: withoutCatFilter(state.cat, id) }, FILTER_DEBOUNCE_MS);
      else update({ ...state, bodega: withoutBodegaFilter(state.bodega, id) }, FILTER_DEBOUNCE_MS);
    },
    changeFilters(next: Pick<SearchState, 'cat'> | Pick<SearchState, 'bodega'>) {
      update({ ...state, ...next }, FILTER_DEBOUNCE_MS);
    },
    applyFilters() {
      setFiltersOpen(false);
      runNow();
    },
    showNewCats() {
      acknowledgeNewCats();
      setLiveBodegas([]);
      runNow();
    },
    locate() {
      nextDelay.current = 0;
      void geo.requestLocation();
    },
    placePicked: handlePlacePicked,
    /** "Search this area": the list for the map's visible box. */
    searchArea(area: Box) {
      update({ ...state, area }, 0, true);
    },
  };

  const chips = [
    ...(state.tab === 'cats' ? catFilterChips(state.cat) : bodegaFilterChips(state.bodega)),
    ...(state.area ? [AREA_CHIP] : []),
  ];
  return {
    state,
    draft,
    setDraft,
    filtersOpen,
    setFiltersOpen,
    highlightedKey,
    setHighlightedKey,
    geo,
    filterOptions,
    search,
    chips,
    unseenCats,
    locations,
    actions,
  };
}
