// Blank upload forms and what they send (text trimmed; the bodega's cat count stays in the form).
import type { NewBodega } from './api/create-bodega.ts';
import type { NewCat } from './api/create-cat.ts';
import { trimmedText } from '../../lib/form-values.ts';

export const SEX_CHOICES = [
  { value: '', label: 'Select sex' },
  { value: 'Male', label: 'Male' },
  { value: 'Female', label: 'Female' },
  { value: 'Unknown', label: 'Unknown' },
] as const;

export const BLANK_CAT: NewCat = {
  name: '',
  bodega_name: '',
  address: '',
  description: '',
  age: '',
  breed: '',
  sex: '',
  personality: '',
  color: '',
  weight: '',
  is_friendly: true,
};

export type BodegaForm = NewBodega & { cat_count: string };

export const BLANK_BODEGA: BodegaForm = {
  name: '',
  phone: '',
  address: '',
  description: '',
  hours: '',
  cat_count: '1',
};

export function catToSend(form: NewCat): NewCat {
  return trimmedText(form);
}

/** Number of Cats is for the contributor's own record; the server counts the cats added. */
export function bodegaToSend(form: BodegaForm): NewBodega {
  const { cat_count: _count, ...bodega } = form;
  return trimmedText(bodega);
}
