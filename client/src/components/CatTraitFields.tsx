// A cat's own fields after its name, in the same order and with the same limits on the upload and
// the edit form.
import { SelectField } from './SelectField.tsx';
import { TextAreaField } from './TextAreaField.tsx';
import { TextField } from './TextField.tsx';
import { TEXT_LIMITS, type CatSex } from '../lib/catalogue.ts';
import { textInputs } from '../lib/form-values.ts';

type TextTrait = 'description' | 'age' | 'breed' | 'color' | 'weight' | 'personality';
export type CatTraits = Record<TextTrait, string> & { sex: CatSex; is_friendly: boolean };

type CatTraitFieldsProps = {
  values: CatTraits;
  update(change: Partial<CatTraits>): void;
  sexOptions: readonly { value: string; label: string }[];
  /** Gives each input its field's name (the upload form does, for the browser's autofill). */
  named?: boolean;
  placeholders?: Record<TextTrait, string>;
};

export function CatTraitFields({
  values,
  update,
  sexOptions,
  named = false,
  placeholders,
}: CatTraitFieldsProps) {
  const name = (key: keyof CatTraits) => (named ? key : undefined);
  const input = textInputs(values, update, named);
  const textField = (key: Exclude<TextTrait, 'description'>, label: string) => (
    <TextField label={label} {...input(key)} maxLength={TEXT_LIMITS[key]} placeholder={placeholders?.[key]} />
  );
  return (
    <>
      <div className="item-form__grid--full">
        <TextAreaField
          label="Description"
          {...input('description')}
          maxLength={TEXT_LIMITS.description}
          placeholder={placeholders?.description}
        />
      </div>
      {textField('age', 'Age')}
      {textField('breed', 'Breed')}
      <SelectField
        label="Sex"
        name={name('sex')}
        value={values.sex}
        onChange={(sex) => update({ sex: sex as CatSex })}
        options={sexOptions}
      />
      {textField('color', 'Color')}
      {textField('weight', 'Weight')}
      {textField('personality', 'Personality')}
      <div className="item-form__grid--full field">
        <label className="checkbox">
          <input
            type="checkbox"
            name={name('is_friendly')}
            checked={values.is_friendly}
            onChange={(e) => update({ is_friendly: e.target.checked })}
          />
          Friendly with customers
        </label>
      </div>
    </>
  );
}
