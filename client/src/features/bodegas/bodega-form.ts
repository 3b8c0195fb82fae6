import type { BodegaDetail } from '../../lib/catalogue.ts';
import { trimmedText } from '../../lib/form-values.ts';
import type { BodegaEdit } from './api/update-bodega.ts';

export const DELETE_BODEGA_CONFIRMATION =
  'Are you sure you want to delete this bodega? This will also delete all associated cats and cannot be undone.';

export function bodegaEditOf(bodega: BodegaDetail): BodegaEdit {
  return {
    name: bodega.name,
    address: bodega.address,
    description: bodega.description,
    phone: bodega.phone,
    hours: bodega.hours,
  };
}

/** What is sent: text trimmed, and the position only when the shop was placed on the map. */
export function bodegaEditToSend(edit: BodegaEdit): BodegaEdit {
  const { latitude, longitude, ...text } = trimmedText(edit);
  return latitude !== undefined && longitude !== undefined ? { ...text, latitude, longitude } : text;
}
