import { useId, type ReactNode } from 'react';

type FieldProps = {
  label: string;
  /** The field's control (and anything beside it), given the id its label points at. */
  children(id: string): ReactNode;
};

/** A labelled form field: the frame every input, text area and drop-down of the forms sits in. */
export function Field({ label, children }: FieldProps) {
  const id = useId();
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children(id)}
    </div>
  );
}
