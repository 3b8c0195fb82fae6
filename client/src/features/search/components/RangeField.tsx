import { useId } from 'react';
import './range-field.css';

type RangeFieldProps = {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  display?: string;
  onChange(value: number): void;
};

/** A labelled slider that shows its current value. */
export function RangeField({ label, value, min, max, step, display, onChange }: RangeFieldProps) {
  const id = useId();
  const shown = display ?? String(value);
  return (
    <div className="field range-field">
      <div className="range-field__label">
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        <output htmlFor={id} className="range-field__value" aria-hidden="true">
          {shown}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={Math.min(max, value)}
        aria-valuetext={shown}
        onChange={(e) => onChange(Number(e.target.value))}
      />
    </div>
  );
}
