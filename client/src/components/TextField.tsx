import type { InputHTMLAttributes } from 'react';
import { limitedChange } from '../lib/text-input.ts';
import { Field } from './Field.tsx';

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'id'> & {
  label: string;
  value: string;
  onChange(value: string): void;
  /** The most characters it takes, counted as the server counts them (not in UTF-16 units). */
  maxLength?: number;
};

/** A labelled text input. */
export function TextField({ label, value, onChange, className, maxLength, ...rest }: TextFieldProps) {
  return (
    <Field label={label}>
      {(id) => (
        <input
          id={id}
          className={className ? `input ${className}` : 'input'}
          value={value}
          onChange={limitedChange(maxLength, onChange)}
          {...rest}
        />
      )}
    </Field>
  );
}
