// Adds a bodega. Number of Cats is asked for but not sent: the cats added there are counted.
import { TextAreaField } from '../../../components/TextAreaField.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { TEXT_LIMITS, type BodegaDetail } from '../../../lib/catalogue.ts';
import { useCreateBodegaMutation } from '../api/create-bodega.ts';
import { BLANK_BODEGA, bodegaToSend } from '../forms.ts';
import { useUploadForm } from '../hooks/use-upload-form.ts';
import { AddressField } from './AddressField.tsx';
import { UploadForm } from './UploadForm.tsx';

export function BodegaUploadForm({ onAdded }: { onAdded(bodega: BodegaDetail): void }) {
  const createBodega = useCreateBodegaMutation();
  const upload = useUploadForm({
    kind: 'bodega',
    blank: BLANK_BODEGA,
    request: createBodega,
    create: async (bodega, position) =>
      (await createBodega.mutateAsync({ bodega: bodegaToSend(bodega), position })).bodega,
    onAdded,
  });
  const { input } = upload;

  return (
    <UploadForm upload={upload}>
      <TextField label="Bodega Name" {...input('name')} required maxLength={TEXT_LIMITS.name} />
      <TextField
        label="Phone"
        type="tel"
        {...input('phone')}
        maxLength={TEXT_LIMITS.phone}
        autoComplete="tel"
        placeholder="(212) 555-0123"
      />
      <AddressField upload={upload} />
      <div className="item-form__grid--full">
        <TextAreaField
          label="Description"
          {...input('description')}
          maxLength={TEXT_LIMITS.description}
          placeholder="What makes this shop special?"
        />
      </div>
      <TextField
        label="Hours"
        {...input('hours')}
        maxLength={TEXT_LIMITS.hours}
        placeholder="e.g. Open 24 hours"
      />
      <TextField
        label="Number of Cats"
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        {...input('cat_count')}
      />
    </UploadForm>
  );
}
