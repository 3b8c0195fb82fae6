// Adds a bodega. Number of Cats is asked for but not sent: the cats added there are counted.
import { TextAreaField } from '../../../components/TextAreaField.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { TEXT_LIMITS, type BodegaDetail } from '../../../lib/catalogue.ts';
import { createBodega } from '../api/create-bodega.ts';
import { BLANK_BODEGA, bodegaToSend } from '../forms.ts';
import { useUploadForm } from '../hooks/use-upload-form.ts';
import { AddressField } from './AddressField.tsx';
import { UploadForm } from './UploadForm.tsx';

export function BodegaUploadForm({ onAdded }: { onAdded(bodega: BodegaDetail): void }) {
  const { form, update, busy, location, submit } = useUploadForm({
    kind: 'bodega',
    blank: BLANK_BODEGA,
    create: async (bodega, position) => (await createBodega(bodegaToSend(bodega), position)).bodega,
    onAdded,
  });

  return (
    <UploadForm kind="bodega" busy={busy} onSubmit={submit}>
      <TextField
        label="Bodega Name"
        name="name"
        value={form.name}
        onChange={(name) => update({ name })}
        required
        maxLength={TEXT_LIMITS.name}
      />
      <TextField
        label="Phone"
        name="phone"
        type="tel"
        value={form.phone}
        onChange={(phone) => update({ phone })}
        maxLength={TEXT_LIMITS.phone}
        autoComplete="tel"
        placeholder="(212) 555-0123"
      />
      <div className="item-form__grid--full">
        <AddressField
          value={form.address}
          onChange={(address) => update({ address })}
          location={location}
          disabled={busy}
        />
      </div>
      <div className="item-form__grid--full">
        <TextAreaField
          label="Description"
          name="description"
          value={form.description}
          onChange={(description) => update({ description })}
          maxLength={TEXT_LIMITS.description}
          placeholder="What makes this shop special?"
        />
      </div>
      <TextField
        label="Hours"
        name="hours"
        value={form.hours}
        onChange={(hours) => update({ hours })}
        maxLength={TEXT_LIMITS.hours}
        placeholder="e.g. Open 24 hours"
      />
      <TextField
        label="Number of Cats"
        name="cat_count"
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={form.cat_count}
        onChange={(cat_count) => update({ cat_count })}
      />
    </UploadForm>
  );
}
