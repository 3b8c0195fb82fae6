import type { TextareaHTMLAttributes } from 'react';
import { limitedChange } from '../lib/text-input.ts';
import { Field } from './Field.tsx';

type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'id'> & {
  label: string;
  value: string;
  onChange(value: string): void;
  /** The most characters it takes, counted as the server counts them (not in UTF-16 units). */
  maxLength?: number;
};

/** A labelled multi-line text input. */
export function TextAreaField({ label, value, onChange, rows = 4, maxLength, ...rest }: TextAreaFieldProps) {
  return (
    <Field label={label}>
      {(id) => (
        <textarea
          id={id}
          className="textarea"
          rows={rows}
          value={value}
          onChange={limitedChange(maxLength, onChange)}
          {...rest}
        />
      )}
    </Field>
  );
}
