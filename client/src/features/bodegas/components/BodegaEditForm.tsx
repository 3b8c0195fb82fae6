// The creator's form for a bodega, with its rating, cat count and status shown read-only.
import { useState } from 'react';
import { MapPlacement } from '../../../components/MapPlacement.tsx';
import { TextAreaField } from '../../../components/TextAreaField.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { TEXT_LIMITS, type BodegaDetail } from '../../../lib/catalogue.ts';
import { formatCoordinates } from '../../../lib/coordinates.ts';
import { formatRating } from '../../../lib/format.ts';
import { textInputs } from '../../../lib/form-values.ts';
import { ItemEditForm } from '../../item-edit/index.ts';
import { useDeleteBodegaMutation } from '../api/delete-bodega.ts';
import { useUpdateBodegaMutation, type BodegaEdit } from '../api/update-bodega.ts';
import { bodegaEditOf, bodegaEditToSend, DELETE_BODEGA_CONFIRMATION } from '../bodega-form.ts';

type BodegaEditFormProps = { bodega: BodegaDetail; onStale(): void };

export function BodegaEditForm({ bodega, onStale }: BodegaEditFormProps) {
  const [edit, setEdit] = useState<BodegaEdit>(() => bodegaEditOf(bodega));
  const update = (change: Partial<BodegaEdit>) => setEdit((e) => ({ ...e, ...change }));
  const input = textInputs(edit, update);
  const save = useUpdateBodegaMutation();
  const remove = useDeleteBodegaMutation();
  const { id, version } = bodega;
  const position =
    edit.latitude !== undefined && edit.longitude !== undefined
      ? { lat: edit.latitude, lng: edit.longitude }
      : bodega.latitude !== null && bodega.longitude !== null
        ? { lat: bodega.latitude, lng: bodega.longitude }
        : null;

  return (
    <ItemEditForm
      kind="bodega"
      itemId={bodega.id}
      deleteConfirmation={DELETE_BODEGA_CONFIRMATION}
      save={{ request: save, send: () => save.mutateAsync({ id, edit: bodegaEditToSend(edit), version }) }}
      remove={{ request: remove, send: () => remove.mutateAsync({ id, version }) }}
      onStale={onStale}
      readOnlyPart={
        <dl className="item-form__stats" aria-label="Bodega statistics">
          <div>
            <dt>Rating</dt>
            <dd>{formatRating(bodega.rating)}</dd>
          </div>
          <div>
            <dt>Cats</dt>
            <dd>{bodega.cat_count}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>{bodega.is_verified ? 'Verified' : 'Pending'}</dd>
          </div>
        </dl>
      }
    >
      <div className="item-form__grid--full">
        <TextField label="Bodega Name" {...input('name')} required maxLength={TEXT_LIMITS.name} />
      </div>
      <div className="item-form__grid--full">
        <TextField
          label="Address"
          {...input('address')}
          required
          maxLength={TEXT_LIMITS.address}
          autoComplete="street-address"
        />
        <p className="item-form__position" aria-live="polite">
          {position
            ? `Position ${formatCoordinates(position)}${edit.latitude !== undefined ? ' (placed on the map)' : ''}`
            : 'No position yet: it is found from the address, or place the shop on the map.'}
        </p>
        <MapPlacement value={position} onPick={({ lat, lng }) => update({ latitude: lat, longitude: lng })} />
      </div>
      <div className="item-form__grid--full">
        <TextAreaField label="Description" {...input('description')} maxLength={TEXT_LIMITS.description} />
      </div>
      <TextField
        label="Phone"
        type="tel"
        {...input('phone')}
        maxLength={TEXT_LIMITS.phone}
        autoComplete="tel"
      />
      <TextField label="Hours" {...input('hours')} maxLength={TEXT_LIMITS.hours} />
    </ItemEditForm>
  );
}
