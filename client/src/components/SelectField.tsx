import type { SelectHTMLAttributes } from 'react';
import { Field } from './Field.tsx';

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'id'> & {
  label: string;
  value: string;
  onChange(value: string): void;
  options: readonly { value: string; label: string }[];
};

/** A labelled drop-down. */
export function SelectField({ label, value, onChange, options, ...rest }: SelectFieldProps) {
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} className="select" value={value} onChange={(e) => onChange(e.target.value)} {...rest}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
