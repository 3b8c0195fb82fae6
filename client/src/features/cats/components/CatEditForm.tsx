// The creator's form for a cat: its own fields are editable, its bodega is shown read-only.
import { useState } from 'react';
import { Icon } from '../../../components/Icon.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { TEXT_LIMITS, type BodegaSummary, type CatDetail } from '../../../lib/catalogue.ts';
import { textInputs, trimmedText } from '../../../lib/form-values.ts';
import { CatTraitFields } from '../../../components/CatTraitFields.tsx';
import { ItemEditForm } from '../../item-edit/index.ts';
import { useDeleteCatMutation } from '../api/delete-cat.ts';
import { useUpdateCatMutation, type CatEdit } from '../api/update-cat.ts';
import { catEditOf, DELETE_CAT_CONFIRMATION, SEX_OPTIONS } from '../cat-form.ts';

type CatEditFormProps = { cat: CatDetail; bodega: BodegaSummary; onStale(): void };

export function CatEditForm({ cat, bodega, onStale }: CatEditFormProps) {
  const [edit, setEdit] = useState<CatEdit>(() => catEditOf(cat));
  const update = (change: Partial<CatEdit>) => setEdit((e) => ({ ...e, ...change }));
  const input = textInputs(edit, update);
  const save = useUpdateCatMutation();
  const remove = useDeleteCatMutation();
  const { id, version } = cat;

  return (
    <ItemEditForm
      kind="cat"
      itemId={cat.id}
      deleteConfirmation={DELETE_CAT_CONFIRMATION}
      save={{ request: save, send: () => save.mutateAsync({ id, edit: trimmedText(edit), version }) }}
      remove={{ request: remove, send: () => remove.mutateAsync({ id, version }) }}
      onStale={onStale}
      readOnlyPart={
        <fieldset className="item-form__readonly">
          <legend className="visually-hidden">Bodega</legend>
          <TextField label="Bodega Name" value={bodega.name} onChange={() => {}} readOnly />
          <TextField label="Address" value={bodega.address} onChange={() => {}} readOnly />
          <p className="item-form__note">
            <Icon name="alert" size={16} />
            Bodega information cannot be changed from this form
          </p>
        </fieldset>
      }
    >
      <div className="item-form__grid--full">
        <TextField label="Cat Name" {...input('name')} required maxLength={TEXT_LIMITS.name} />
      </div>
      <CatTraitFields values={edit} update={update} sexOptions={SEX_OPTIONS} />
    </ItemEditForm>
  );
}
