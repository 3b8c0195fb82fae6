import type { InputHTMLAttributes } from 'react';
import { Field } from './Field.tsx';

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'id'> & {
  label: string;
  value: string;
  onChange(value: string): void;
};

/** A labelled text input. */
export function TextField({ label, value, onChange, className, ...rest }: TextFieldProps) {
  return (
    <Field label={label}>
      {(id) => (
        <input
          id={id}
          className={className ? `input ${className}` : 'input'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...rest}
        />
      )}
    </Field>
  );
}
