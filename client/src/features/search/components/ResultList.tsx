import { Icon } from '../../../components/Icon.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import type { SearchStatus } from '../hooks/use-search-results.ts';
import { resultCount, type SearchResults } from '../model/results.ts';
import type { SearchTab } from '../model/search-state.ts';
import { BodegaCard } from './BodegaCard.tsx';
import { CatCard } from './CatCard.tsx';
import { RESULTS_PANEL_ID, tabId } from './SearchTabs.tsx';

type ResultListProps = {
  tab: SearchTab;
  results: SearchResults | null;
  status: SearchStatus;
  loadingMore: boolean;
  highlightedKey: string | null;
  onHighlight(key: string | null): void;
  onLoadMore(): void;
};

function Heading({ tab, count }: { tab: SearchTab; count: string }) {
  return (
    <h2 className="results__title">
      {tab === 'cats' ? `Cats Found (${count})` : `Bodegas Found (${count})`}
    </h2>
  );
}

/** 'Cats Found (n)' / 'Bodegas Found (n)' with the cards and 'Load more'. */
export function ResultList(props: ResultListProps) {
  const { tab, status, loadingMore, highlightedKey, onHighlight, onLoadMore } = props;
  // Results of the other tab are not shown while the new tab's search runs.
  const results = props.results?.kind === tab ? props.results : null;
  const busy = status === 'loading' || status === 'idle';
  const highlight = (key: string) => (active: boolean) => onHighlight(active ? key : null);

  return (
    <section
      id={RESULTS_PANEL_ID}
      className="results"
      role="tabpanel"
      aria-labelledby={tabId(tab)}
      aria-busy={busy}
    >
      <div className="results__header">
        <Heading tab={tab} count={resultCount(results?.total ?? 0, results?.totalExact ?? true)} />
        {busy && results && <Spinner size="small" label="Updating..." />}
      </div>
      {!results && busy && (
        <div className="results__state">
          <Spinner label="Searching..." />
        </div>
      )}
      {results && results.items.length === 0 && (
        <div className="results__state results__empty">
          <Icon name="search" size={32} />
          <p>
            {tab === 'cats' ? 'No cats found.' : 'No bodegas found.'} Try another search or fewer filters.
          </p>
        </div>
      )}
      {!results && status === 'error' && (
        <div className="results__state results__empty">
          <Icon name="alert" size={32} />
          <p>The search did not work. Please try again.</p>
        </div>
      )}
      {results && results.items.length > 0 && (
        <ul className="results__list">
          {results.kind === 'cats'
            ? results.items.map((cat) => (
                <li key={cat.id}>
                  <CatCard
                    cat={cat}
                    highlighted={highlightedKey === `cat-${cat.id}`}
                    onHighlight={highlight(`cat-${cat.id}`)}
                  />
                </li>
              ))
            : results.items.map((bodega) => (
                <li key={bodega.id}>
                  <BodegaCard
                    bodega={bodega}
                    highlighted={highlightedKey === `bodega-${bodega.id}`}
                    onHighlight={highlight(`bodega-${bodega.id}`)}
                  />
                </li>
              ))}
        </ul>
      )}
      {results && results.page < results.pages && (
        <button
          type="button"
          className="button button--secondary button--block results__more"
          onClick={onLoadMore}
          disabled={loadingMore}
        >
          {loadingMore ? 'Loading...' : 'Load more'}
        </button>
      )}
    </section>
  );
}
