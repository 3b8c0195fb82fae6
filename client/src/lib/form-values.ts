// A form's values as its inputs and its request see them: one key ties an input to its value, and
// the text is trimmed before it is sent, as the server stores it.

/** The keys of a form's plain text values (not a choice such as a cat's sex, not a number). */
type TextKey<Form> = {
  [K in keyof Form]-?: Form[K] extends string ? (string extends Form[K] ? K : never) : never;
}[keyof Form] &
  string;

/** The props that tie a TextField or TextAreaField to one text value of the form. */
export type TextInputs<Form> = (key: TextKey<Form>) => {
  name: string | undefined;
  value: string;
  onChange(value: string): void;
};

/**
 * TextInputs of the form's values. With `named`, each input carries its field's name too (the
 * upload forms do, for the browser's autofill).
 */
export function textInputs<Form>(
  values: Form,
  update: (change: Partial<Form>) => void,
  named = false,
): TextInputs<Form> {
  return (key) => ({
    name: named ? key : undefined,
    value: values[key] as string,
    onChange: (value: string) => update({ [key]: value } as Partial<Form>),
  });
}

/** The values with every text trimmed. */
export function trimmedText<T extends object>(values: T): T {
  const out = { ...values } as Record<string, unknown>;
  for (const [key, value] of Object.entries(out)) if (typeof value === 'string') out[key] = value.trim();
  return out as T;
}
