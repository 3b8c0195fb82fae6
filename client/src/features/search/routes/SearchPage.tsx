import { useNavigate } from 'react-router-dom';
import { env } from '../../../config/env.ts';
import { BackendNotConfigured } from '../components/BackendNotConfigured.tsx';
import { FilterChips } from '../components/FilterChips.tsx';
import { FilterPanel } from '../components/FilterPanel.tsx';
import { SearchMap } from '../components/map/SearchMap.tsx';
import { NewCatsPill } from '../components/NewCatsPill.tsx';
import { ResultList } from '../components/ResultList.tsx';
import { SearchControls } from '../components/SearchControls.tsx';
import { SearchTabs } from '../components/SearchTabs.tsx';
import { useSearchScreen } from '../hooks/use-search-screen.ts';
import { unplottedCount } from '../model/map-locations.ts';
import './search-page.css';

const FILTER_PANEL_ID = 'search-filter-panel';

/** The search screen below its heading (the heading ships with the app shell, see SearchRoute). */
export default function SearchPage() {
  if (!env.apiConfigured) return <BackendNotConfigured />;
  return <SearchScreen />;
}

function SearchScreen() {
  const navigate = useNavigate();
  const screen = useSearchScreen();
  const { state, geo, filterOptions, search, chips, actions } = screen;

  return (
    <>
      <SearchControls
        draft={screen.draft}
        onDraftChange={screen.setDraft}
        onSubmit={actions.submit}
        onChooseSuggestion={actions.chooseSuggestion}
        filtersOpen={screen.filtersOpen}
        filterPanelId={FILTER_PANEL_ID}
        onToggleFilters={() => screen.setFiltersOpen((open) => !open)}
        filtersActive={chips.length > 0}
        filterOptionsFailed={filterOptions.failed}
        onRetryFilters={filterOptions.retry}
        geolocationStatus={geo.status}
        locating={geo.locating}
        onLocate={actions.locate}
      />
      <div className="search-page__bar">
        <SearchTabs active={state.tab} onChange={actions.selectTab} />
        <NewCatsPill count={screen.unseenCats.length} onShow={actions.showNewCats} />
      </div>
      <FilterChips chips={chips} onRemove={actions.removeChip} onClearAll={actions.clearFilters} />
      {screen.filtersOpen && (
        <FilterPanel
          id={FILTER_PANEL_ID}
          tab={state.tab}
          cat={state.cat}
          bodega={state.bodega}
          options={filterOptions.options}
          onCatChange={(cat) => actions.changeFilters({ cat })}
          onBodegaChange={(bodega) => actions.changeFilters({ bodega })}
          onClearAll={actions.clearFilters}
          onApply={actions.applyFilters}
        />
      )}
      <div className="search-page__layout">
        <div className="search-page__map">
          <SearchMap
            state={state}
            area={state.area}
            onSearchArea={actions.searchArea}
            locations={screen.locations}
            userLocation={geo.coords}
            highlightedKey={screen.highlightedKey}
            onHighlight={screen.setHighlightedKey}
            onMarkerClick={(location) => navigate(`/${location.type}/${location.id}`)}
            onPlacePicked={actions.placePicked}
            unplottedCount={unplottedCount(search.results, state.tab)}
          />
        </div>
        <ResultList
          tab={state.tab}
          results={search.results}
          status={search.status}
          loadingMore={search.loadingMore}
          highlightedKey={screen.highlightedKey}
          onHighlight={screen.setHighlightedKey}
          onLoadMore={search.loadMore}
        />
      </div>
    </>
  );
}
