import type { BodegaDetail } from '../../lib/catalogue.ts';
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

export function trimmedBodegaEdit(edit: BodegaEdit): BodegaEdit {
  const placed = edit.latitude !== undefined && edit.longitude !== undefined;
  return {
    name: edit.name.trim(),
    address: edit.address.trim(),
    description: edit.description.trim(),
    phone: edit.phone.trim(),
    hours: edit.hours.trim(),
    ...(placed ? { latitude: edit.latitude, longitude: edit.longitude } : {}),
  };
}
