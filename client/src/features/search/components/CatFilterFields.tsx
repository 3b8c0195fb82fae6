import { SelectField } from '../../../components/SelectField.tsx';
import type { FilterOptions } from '../api/get-filter-options.ts';
import { friendlinessLabel, type CatFilters, type Friendliness } from '../model/filters.ts';
import { RatingRange } from './RatingRange.tsx';

const FRIENDLINESS: Friendliness[] = ['all', 'friendly', 'not_friendly'];

/** The cats tab's filters: breed, personality, friendliness and the rating range. */
export function CatFilterFields({
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
