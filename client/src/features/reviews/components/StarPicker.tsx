import { useId, useState } from 'react';

export const RATING_CHOICES = [1, 2, 3, 4, 5] as const;

type StarPickerProps = { value: number; onChange(value: number): void; disabled?: boolean };

/** Five radio buttons drawn as stars: arrow keys move the rating, hovering previews it. */
export function StarPicker({ value, onChange, disabled }: StarPickerProps) {
  const name = useId();
  const [preview, setPreview] = useState<number | null>(null);
  const shown = preview ?? value;
  return (
    <fieldset className="star-picker" disabled={disabled} onMouseLeave={() => setPreview(null)}>
      <legend className="field__label">Your rating</legend>
      <div className="star-picker__stars">
        {RATING_CHOICES.map((n) => (
          <label key={n} className="star-picker__choice" onMouseEnter={() => setPreview(n)}>
            <input
              className="visually-hidden"
              type="radio"
              name={name}
              value={n}
              checked={value === n}
              onChange={() => onChange(n)}
              aria-label={n === 1 ? '1 star' : `${n} stars`}
            />
            <span
              className={n <= shown ? 'star-picker__star star-picker__star--on' : 'star-picker__star'}
              aria-hidden="true"
            >
              ★
            </span>
          </label>
        ))}
        <span className="star-picker__value" aria-hidden="true">
          {value} / 5
        </span>
      </div>
    </fieldset>
  );
}
