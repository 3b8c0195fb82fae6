import type { FilterOptions } from '../api/get-filter-options.ts';
import {
  CAT_COUNT_RANGE,
  RATING_RANGE,
  friendlinessLabel,
  type BodegaFilters,
  type CatFilters,
  type Friendliness,
} from '../model/filters.ts';
import type { SearchTab } from '../model/search-state.ts';
import { RangeField } from './RangeField.tsx';
import { SelectField } from './SelectField.tsx';
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

const FRIENDLINESS: Friendliness[] = ['all', 'friendly', 'not_friendly'];

/** Keeps a min/max pair ordered when either end moves past the other. */
function orderedRange(min: number, max: number, moved: 'min' | 'max'): { min: number; max: number } {
  if (min <= max) return { min, max };
  return moved === 'min' ? { min, max: min } : { min: max, max };
}

function RatingRange({
  min,
  max,
  onChange,
}: {
  min: number;
  max: number;
  onChange(range: { min: number; max: number }): void;
}) {
  return (
    <>
      <RangeField
        label="Minimum rating"
        value={min}
        {...RATING_RANGE}
        display={min.toFixed(1)}
        onChange={(v) => onChange(orderedRange(v, max, 'min'))}
      />
      <RangeField
        label="Maximum rating"
        value={max}
        {...RATING_RANGE}
        display={max.toFixed(1)}
        onChange={(v) => onChange(orderedRange(min, v, 'max'))}
      />
    </>
  );
}

function CatFilterFields({
  cat,
  options,
  onChange,
}: {
  cat: CatFilters;
  options: FilterOptions;
  onChange(f: CatFilters): void;
}) {
  return (
    <>
      <div className="filter-panel__grid">
        <SelectField
          label="Breed"
          value={cat.breed}
          options={[
            { value: '', label: 'All Breeds' },
            ...options.breeds.map((b) => ({ value: b, label: b })),
          ]}
          onChange={(breed) => onChange({ ...cat, breed })}
        />
        <SelectField
          label="Personality"
          value={cat.personality}
          options={[
            { value: '', label: 'All Personalities' },
            ...options.personalities.map((p) => ({ value: p, label: p })),
          ]}
          onChange={(personality) => onChange({ ...cat, personality })}
        />
        <SelectField
          label="Friendliness"
          value={cat.friendliness}
          options={FRIENDLINESS.map((f) => ({ value: f, label: friendlinessLabel(f) }))}
          onChange={(friendliness) => onChange({ ...cat, friendliness: friendliness as Friendliness })}
        />
      </div>
      <div className="filter-panel__grid filter-panel__grid--ranges">
        <RatingRange
          min={cat.minRating}
          max={cat.maxRating}
          onChange={({ min, max }) => onChange({ ...cat, minRating: min, maxRating: max })}
        />
      </div>
    </>
  );
}

function BodegaFilterFields({
  bodega,
  onChange,
}: {
  bodega: BodegaFilters;
  onChange(f: BodegaFilters): void;
}) {
  const slider = { min: CAT_COUNT_RANGE.min, max: CAT_COUNT_RANGE.sliderMax, step: CAT_COUNT_RANGE.step };
  const maxShown = bodega.maxCats >= CAT_COUNT_RANGE.max ? 'Any' : String(bodega.maxCats);
  return (
    <div className="filter-panel__grid filter-panel__grid--ranges">
      <RangeField
        label="Minimum cats"
        value={bodega.minCats}
        {...slider}
        onChange={(v) => {
          const r = orderedRange(v, bodega.maxCats, 'min');
          onChange({ ...bodega, minCats: r.min, maxCats: r.max });
        }}
      />
      <RangeField
        label="Maximum cats"
        value={bodega.maxCats}
        {...slider}
        display={maxShown}
        onChange={(v) => {
          const r = orderedRange(bodega.minCats, v, 'max');
          onChange({ ...bodega, minCats: r.min, maxCats: r.max });
        }}
      />
      <RatingRange
        min={bodega.minRating}
        max={bodega.maxRating}
        onChange={({ min, max }) => onChange({ ...bodega, minRating: min, maxRating: max })}
      />
      <label className="checkbox filter-panel__checkbox">
        <input
          type="checkbox"
          checked={bodega.verifiedOnly}
          onChange={(e) => onChange({ ...bodega, verifiedOnly: e.target.checked })}
        />
        Verified Bodegas Only
      </label>
    </div>
  );
}

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
