import { useState } from 'react';
import { Field } from './Field.tsx';

type PasswordFieldProps = {
  label: string;
  name: string;
  value: string;
  onChange(value: string): void;
  autoComplete: 'current-password' | 'new-password';
  placeholder?: string;
};

/** A required password input with a Show/Hide toggle. */
export function PasswordField({
  label,
  name,
  value,
  onChange,
  autoComplete,
  placeholder,
}: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <Field label={label}>
      {(id) => (
        <div className="input-with-action">
          <input
            id={id}
            name={name}
            className="input"
            type={visible ? 'text' : 'password'}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            autoComplete={autoComplete}
            placeholder={placeholder}
            required
          />
          <button
            type="button"
            className="input-with-action__button"
            aria-label={visible ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
            aria-pressed={visible}
            onClick={() => setVisible((v) => !v)}
          >
            {visible ? 'Hide' : 'Show'}
          </button>
        </div>
      )}
    </Field>
  );
}
