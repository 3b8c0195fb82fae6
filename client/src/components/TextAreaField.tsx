import type { TextareaHTMLAttributes } from 'react';
import { Field } from './Field.tsx';

type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'id'> & {
  label: string;
  value: string;
  onChange(value: string): void;
};

/** A labelled multi-line text input. */
export function TextAreaField({ label, value, onChange, rows = 4, ...rest }: TextAreaFieldProps) {
  return (
    <Field label={label}>
      {(id) => (
        <textarea
          id={id}
          className="textarea"
          rows={rows}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...rest}
        />
      )}
    </Field>
  );
}
