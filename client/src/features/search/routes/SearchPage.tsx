import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate } from 'react-router-dom';
import { env } from '../../../config/env.ts';
import { getRuntimeConfig } from '../../../lib/runtime-config.ts';
import { useSession } from '../../auth/stores/session.ts';
import { useLiveStore } from '../../live/store.ts';
import { useLiveEvents } from '../../live/use-live-events.ts';
import type { BodegaSummary } from '../../../lib/catalogue.ts';
import { BackendNotConfigured } from '../components/BackendNotConfigured.tsx';
import { FilterChips } from '../components/FilterChips.tsx';
import { FilterPanel } from '../components/FilterPanel.tsx';
import { SearchMap } from '../components/map/SearchMap.tsx';
import type { MapLocation } from '../components/map/types.ts';
import { NewCatsPill } from '../components/NewCatsPill.tsx';
import { ResultList } from '../components/ResultList.tsx';
import { SearchControls } from '../components/SearchControls.tsx';
import { SearchTabs } from '../components/SearchTabs.tsx';
import { useFilterOptions } from '../hooks/use-filter-options.ts';
import { useGeolocation } from '../hooks/use-geolocation.ts';
import { useSearchResults } from '../hooks/use-search-results.ts';
import { useSearchState } from '../hooks/use-search-state.ts';
import {
  DEFAULT_BODEGA_FILTERS,
  DEFAULT_CAT_FILTERS,
  bodegaFilterChips,
  catFilterChips,
  withoutBodegaFilter,
  withoutCatFilter,
} from '../model/filters.ts';
import { toMapLocations } from '../model/map-locations.ts';
import type { SearchResults } from '../model/results.ts';
import { NEARBY_RADIUS_KM } from '../model/search-request.ts';
import type { SearchState, SearchTab } from '../model/search-state.ts';
import { choose, type Suggestion } from '../model/suggestions.ts';
import '../search.css';

/** The initial search and filter options wait this long after the session check. */
export const INITIAL_LOAD_DELAY_MS = 2000;
export const FILTER_DEBOUNCE_MS = 500;
const FILTER_PANEL_ID = 'search-filter-panel';

/** True once the initial delay after the session check has passed. */
function useInitialDelayPassed(): boolean {
  const readyAt = useSession((s) => s.readyAt);
  const [passed, setPassed] = useState(false);
  useEffect(() => {
    if (!env.apiConfigured || readyAt === null) return;
    const wait = Math.max(0, readyAt + INITIAL_LOAD_DELAY_MS - Date.now());
    const timer = setTimeout(() => setPassed(true), wait);
    return () => clearTimeout(timer);
  }, [readyAt]);
  return passed;
}

function useNearbyRadius(): number {
  const [radius, setRadius] = useState(NEARBY_RADIUS_KM);
  useEffect(() => {
    if (!env.apiConfigured) return;
    getRuntimeConfig()
      .then((config) => setRadius(config.nearby_radius_km || NEARBY_RADIUS_KM))
      .catch(() => {});
  }, []);
  return radius;
}

function unplottedCount(results: SearchResults | null, tab: SearchTab): number {
  if (!results || results.kind !== tab) return 0;
  const items: { latitude: number | null; longitude: number | null }[] = results.items;
  return items.filter((item) => item.latitude === null || item.longitude === null).length;
}

/** The search screen below its heading (the heading ships with the app shell, see SearchRoute). */
export default function SearchPage() {
  if (!env.apiConfigured) return <BackendNotConfigured />;
  return <SearchScreen />;
}

function SearchScreen() {
  const navigate = useNavigate();
  const [state, setState] = useSearchState();
  const [draft, setDraft] = useState(state.q);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [highlightedKey, setHighlightedKey] = useState<string | null>(null);
  const [liveBodegas, setLiveBodegas] = useState<BodegaSummary[]>([]);
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
  const { results, status, loadingMore, loadMore, rerun } = useSearchResults({
    state,
    location: geo.coords,
    radiusKm,
    enabled: ready,
    delayMs,
  });

  // Back/forward or a pasted link changes the query: the text box follows.
  useEffect(() => setDraft(state.q), [state.q]);

  useLiveEvents((message) => {
    if (message.type === 'bodega.added') setLiveBodegas((list) => [...list, message.data]);
    if (message.type === 'bodega.deleted')
      setLiveBodegas((list) => list.filter((b) => b.id !== message.data.id));
  });

  function update(next: SearchState, delay: number, push = false) {
    nextDelay.current = delay;
    setState(next, { push });
  }

  function runNow() {
    nextDelay.current = 0;
    rerun();
  }

  function handleSubmit() {
    if (draft.trim() === state.q.trim()) runNow();
    else update({ ...state, q: draft.trim() }, 0, true);
  }

  function handleSuggestion(suggestion: Suggestion) {
    const choice = choose(suggestion, state);
    if ('open' in choice) {
      void navigate(choice.open);
      return;
    }
    setDraft(choice.search.q);
    update(choice.search, 0, true);
  }

  function handleTab(tab: SearchTab) {
    setHighlightedKey(null);
    update({ ...state, tab }, 0, true);
  }

  function clearFilters() {
    if (state.tab === 'cats') update({ ...state, cat: DEFAULT_CAT_FILTERS }, FILTER_DEBOUNCE_MS);
    else update({ ...state, bodega: DEFAULT_BODEGA_FILTERS }, FILTER_DEBOUNCE_MS);
  }

  function removeChip(id: string) {
    if (state.tab === 'cats') update({ ...state, cat: withoutCatFilter(state.cat, id) }, FILTER_DEBOUNCE_MS);
    else update({ ...state, bodega: withoutBodegaFilter(state.bodega, id) }, FILTER_DEBOUNCE_MS);
  }

  function applyFilters() {
    setFiltersOpen(false);
    runNow();
  }

  function showNewCats() {
    acknowledgeNewCats();
    setLiveBodegas([]);
    runNow();
  }

  const chips = state.tab === 'cats' ? catFilterChips(state.cat) : bodegaFilterChips(state.bodega);
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

  return (
    <>
      <SearchControls
        draft={draft}
        onDraftChange={setDraft}
        onSubmit={handleSubmit}
        onChooseSuggestion={handleSuggestion}
        filtersOpen={filtersOpen}
        filterPanelId={FILTER_PANEL_ID}
        onToggleFilters={() => setFiltersOpen((open) => !open)}
        filtersActive={chips.length > 0}
        filterOptionsFailed={filterOptions.failed}
        onRetryFilters={filterOptions.retry}
        geolocationStatus={geo.status}
        locating={geo.locating}
        onLocate={() => {
          nextDelay.current = 0;
          void geo.requestLocation();
        }}
      />
      <div className="search-page__bar">
        <SearchTabs active={state.tab} onChange={handleTab} />
        <NewCatsPill count={unseenCats.length} onShow={showNewCats} />
      </div>
      <FilterChips chips={chips} onRemove={removeChip} onClearAll={clearFilters} />
      {filtersOpen && (
        <FilterPanel
          id={FILTER_PANEL_ID}
          tab={state.tab}
          cat={state.cat}
          bodega={state.bodega}
          options={filterOptions.options}
          onCatChange={(cat) => update({ ...state, cat }, FILTER_DEBOUNCE_MS)}
          onBodegaChange={(bodega) => update({ ...state, bodega }, FILTER_DEBOUNCE_MS)}
          onClearAll={clearFilters}
          onApply={applyFilters}
        />
      )}
      <div className="search-page__layout">
        <div className="search-page__map">
          <SearchMap
            locations={locations}
            userLocation={geo.coords}
            highlightedKey={highlightedKey}
            onHighlight={setHighlightedKey}
            onMarkerClick={(location) => navigate(`/${location.type}/${location.id}`)}
            onPlacePicked={handlePlacePicked}
            unplottedCount={unplottedCount(results, state.tab)}
          />
        </div>
        <ResultList
          tab={state.tab}
          results={results}
          status={status}
          loadingMore={loadingMore}
          highlightedKey={highlightedKey}
          onHighlight={setHighlightedKey}
          onLoadMore={loadMore}
        />
      </div>
    </>
  );
}
