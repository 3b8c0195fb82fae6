import type { FilterOptions } from '../api/get-filter-options.ts';
import type { BodegaFilters, CatFilters } from '../model/filters.ts';
import type { SearchTab } from '../model/search-state.ts';
import { BodegaFilterFields } from './BodegaFilterFields.tsx';
import { CatFilterFields } from './CatFilterFields.tsx';
import './filter-panel.css';

type FilterPanelProps = {
  id: string;
  tab: SearchTab;
  cat: CatFilters;
  bodega: BodegaFilters;
  options: FilterOptions;
  onCatChange(filters: CatFilters): void;
  onBodegaChange(filters: BodegaFilters): void;
  onClearAll(): void;
  onApply(): void;
};

/** The cat or bodega filters of the active tab, with Clear All and Apply Filters. */
export function FilterPanel(props: FilterPanelProps) {
  const { id, tab, cat, bodega, options, onCatChange, onBodegaChange, onClearAll, onApply } = props;
  return (
    <section
      id={id}
      className="filter-panel card"
      aria-label={tab === 'cats' ? 'Cat filters' : 'Bodega filters'}
    >
      <h2 className="filter-panel__title">{tab === 'cats' ? 'Cat Filters' : 'Bodega Filters'}</h2>
      {tab === 'cats' ? (
        <CatFilterFields cat={cat} options={options} onChange={onCatChange} />
      ) : (
        <BodegaFilterFields bodega={bodega} onChange={onBodegaChange} />
      )}
      <div className="filter-panel__actions">
        <button type="button" className="button button--secondary" onClick={onClearAll}>
          Clear All
        </button>
        <button type="button" className="button button--primary" onClick={onApply}>
          Apply Filters
        </button>
      </div>
    </section>
  );
}
