import { CAT_COUNT_RANGE, type BodegaFilters } from '../model/filters.ts';
import { RangeField } from './RangeField.tsx';
import { orderedRange, RatingRange } from './RatingRange.tsx';

/** The bodegas tab's filters: how many cats, the rating range, verified only. */
export function BodegaFilterFields({
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
