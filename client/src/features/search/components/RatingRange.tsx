import { RATING_RANGE } from '../model/filters.ts';
import { RangeField } from './RangeField.tsx';

/** Keeps a min/max pair ordered when either end moves past the other. */
export function orderedRange(min: number, max: number, moved: 'min' | 'max'): { min: number; max: number } {
  if (min <= max) return { min, max };
  return moved === 'min' ? { min, max: min } : { min: max, max };
}

/** Minimum and maximum rating sliders that keep their pair ordered. */
export function RatingRange({
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
