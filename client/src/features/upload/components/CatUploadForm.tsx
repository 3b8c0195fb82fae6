// Adds a cat (and its bodega, when the bodega is new).
import { TextField } from '../../../components/TextField.tsx';
import { TEXT_LIMITS, type CatDetail } from '../../../lib/catalogue.ts';
import { CatTraitFields } from '../../../components/CatTraitFields.tsx';
import { useCreateCatMutation } from '../api/create-cat.ts';
import { BLANK_CAT, catToSend, SEX_CHOICES } from '../forms.ts';
import { useUploadForm } from '../hooks/use-upload-form.ts';
import { AddressField } from './AddressField.tsx';
import { UploadForm } from './UploadForm.tsx';

const PLACEHOLDERS = {
  description: 'What is this cat like? Where does it like to sit?',
  age: 'e.g. 3 years',
  breed: 'e.g. Tabby',
  color: 'e.g. Orange',
  weight: 'e.g. 10 lbs',
  personality: 'e.g. Playful',
};

export function CatUploadForm({ onAdded }: { onAdded(cat: CatDetail): void }) {
  const createCat = useCreateCatMutation();
  const upload = useUploadForm({
    kind: 'cat',
    blank: BLANK_CAT,
    request: createCat,
    create: async (cat, position) => (await createCat.mutateAsync({ cat: catToSend(cat), position })).cat,
    onAdded,
  });
  const { input } = upload;

  return (
    <UploadForm upload={upload}>
      <TextField label="Cat Name" {...input('name')} required maxLength={TEXT_LIMITS.name} />
      <TextField label="Bodega Name" {...input('bodega_name')} required maxLength={TEXT_LIMITS.name} />
      <AddressField upload={upload} />
      <CatTraitFields
        values={upload.form}
        update={upload.update}
        sexOptions={SEX_CHOICES}
        named
        placeholders={PLACEHOLDERS}
      />
    </UploadForm>
  );
}
