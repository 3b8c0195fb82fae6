import type { FormEvent } from 'react';
import { Icon } from '../../../components/Icon.tsx';
import type { GeolocationStatus } from '../model/geolocation.ts';
import type { Suggestion } from '../model/suggestions.ts';
import { SearchCombobox } from './SearchCombobox.tsx';

type SearchControlsProps = {
  draft: string;
  onDraftChange(value: string): void;
  onSubmit(): void;
  onChooseSuggestion(suggestion: Suggestion): void;
  filtersOpen: boolean;
  filterPanelId: string;
  onToggleFilters(): void;
  filtersActive: boolean;
  filterOptionsFailed: boolean;
  onRetryFilters(): void;
  geolocationStatus: GeolocationStatus;
  locating: boolean;
  onLocate(): void;
};

/** Text box (with suggestions while typing), Filters toggle (with '!' when filters are on), Retry Filters, Location and Search. */
export function SearchControls(props: SearchControlsProps) {
  const { draft, onDraftChange, filtersOpen, filtersActive, geolocationStatus, locating } = props;

  function handleSubmit(event: FormEvent) {
    event.preventDefault();
    props.onSubmit();
  }

  return (
    <form className="search-controls" role="search" onSubmit={handleSubmit}>
      <div className="search-controls__query">
        <Icon name="search" className="search-controls__query-icon" size={18} />
        <label htmlFor="search-query" className="visually-hidden">
          Search cats and bodegas
        </label>
        <SearchCombobox
          id="search-query"
          value={draft}
          onChange={onDraftChange}
          onChoose={props.onChooseSuggestion}
          placeholder="Search by name, breed, personality or address"
          maxLength={200}
        />
      </div>
      <div className="search-controls__buttons">
        <button
          type="button"
          className={filtersOpen ? 'button button--secondary is-active' : 'button button--secondary'}
          aria-expanded={filtersOpen}
          aria-controls={props.filterPanelId}
          onClick={props.onToggleFilters}
        >
          <Icon name="filter" size={16} />
          Filters
          {filtersActive && (
            <>
              <span className="filter-badge" aria-hidden="true">
                !
              </span>
              <span className="visually-hidden">(filters active)</span>
            </>
          )}
        </button>
        {props.filterOptionsFailed && (
          <button type="button" className="button button--secondary" onClick={props.onRetryFilters}>
            Retry Filters
          </button>
        )}
        <button
          type="button"
          className={
            geolocationStatus === 'granted'
              ? 'button button--secondary is-active'
              : 'button button--secondary'
          }
          aria-pressed={geolocationStatus === 'granted'}
          onClick={props.onLocate}
          disabled={locating}
        >
          <Icon name="locate" size={16} />
          {locating ? 'Locating...' : 'Location'}
        </button>
        <button type="submit" className="button button--primary">
          Search
        </button>
      </div>
    </form>
  );
}
