// An upload form's values and its submission: one request at a time, with the product's toasts;
// once the item is added the form is blank again and forgets the device position.
import type { UseMutationResult } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast/headless';
import { errorMessage } from '../../../lib/api.ts';
import type { TargetType } from '../../../lib/catalogue.ts';
import { ITEM_WORDS } from '../../../components/item-kinds.ts';
import type { Coordinates } from '../../../lib/coordinates.ts';
import { textInputs, type TextInputs } from '../../../lib/form-values.ts';
import { useAddressLocation, type AddressLocation } from './use-address-location.ts';

type UploadFormOptions<Form, Item> = {
  kind: TargetType;
  blank: Form;
  /** The mutation that adds the item: the form is busy while it runs. */
  request: Pick<UseMutationResult, 'isPending'>;
  /**
   * Sends the form through `request` (with the position the Location button found, if any);
   * answers the new item.
   */
  create(form: Form, position: Coordinates | null): Promise<Item>;
  onAdded(item: Item): void;
};

export type UploadFormState<Form> = {
  kind: TargetType;
  form: Form;
  update(change: Partial<Form>): void;
  /** Ties a text input to its value, named for the browser's autofill. */
  input: TextInputs<Form>;
  busy: boolean;
  location: AddressLocation;
  submit(event: FormEvent): Promise<void>;
};

export function useUploadForm<Form extends object, Item>({
  kind,
  blank,
  request,
  create,
  onAdded,
}: UploadFormOptions<Form, Item>): UploadFormState<Form> {
  const [form, setForm] = useState<Form>(blank);
  const busy = request.isPending;
  const location = useAddressLocation();
  const update = (change: Partial<Form>) => setForm((f) => ({ ...f, ...change }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    try {
      const item = await create(form, location.coords);
      toast.success(`${ITEM_WORDS[kind].title} uploaded successfully!`);
      setForm(blank);
      location.clear();
      onAdded(item);
    } catch (error) {
      toast.error(errorMessage(error, `Failed to upload ${ITEM_WORDS[kind].noun}`));
    }
  }

  return { kind, form, update, input: textInputs(form, update, true), busy, location, submit };
}
