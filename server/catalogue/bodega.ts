// The bodega aggregate: its state folded from its own stream, and the pure decisions on it.
import { definedOnly, sameFields } from './fields.ts';
import { ConcurrencyError, Conflict, Forbidden, NotFound } from '../errors.ts';
import { assertNever, type BodegaFields, type NewEvent, type RecordedEvent } from '../events/types.ts';
import { normalizeText } from './normalize.ts';
import type { Coordinates } from './validation.ts';

export const BODEGA_EVENTS = ['BodegaAdded', 'BodegaUpdated', 'BodegaVerified', 'BodegaDeleted'] as const;
export type BodegaEventType = (typeof BODEGA_EVENTS)[number];
export type BodegaEvent = NewEvent<BodegaEventType>;

export type BodegaState = {
  id: number;
  createdBy: number | null;
  fields: BodegaFields;
  isVerified: boolean;
  version: number;
  deleted: boolean;
};

export type BodegaText = Pick<BodegaFields, 'name' | 'address'> &
  Partial<Pick<BodegaFields, 'description' | 'phone' | 'hours'>>;

export type BodegaCommand =
  | {
      type: 'AddBodega';
      bodegaId: number;
      createdBy: number | null;
      fields: BodegaFields;
      /** Another live bodega with the same name and address, if any. */
      duplicateOf: number | null;
    }
  | {
      type: 'EditBodega';
      actorId: number;
      expectedVersion: number | null;
      text: BodegaText;
      /** Coordinates given by the caller; they win over everything else. */
      coordinates: Coordinates | null;
      /** The geocoder's answer for `text.address`; undefined when it was not asked. */
      geocoded: Coordinates | null | undefined;
      duplicateOf: number | null;
    }
  | { type: 'VerifyBodega'; isVerified: boolean }
  | { type: 'DeleteBodega'; actorId: number; expectedVersion: number | null };

export function evolveBodega(
  state: BodegaState | null,
  event: RecordedEvent<BodegaEventType>,
): BodegaState | null {
  switch (event.type) {
    case 'BodegaAdded': {
      const { bodega_id, created_by, ...fields } = event.data;
      return {
        id: bodega_id,
        createdBy: created_by,
        fields,
        isVerified: false,
        version: event.streamVersion,
        deleted: false,
      };
    }
    case 'BodegaUpdated': {
      if (!state) return state;
      const { bodega_id: _, ...fields } = event.data;
      return { ...state, fields, version: event.streamVersion };
    }
    case 'BodegaVerified':
      return state && { ...state, isVerified: event.data.is_verified, version: event.streamVersion };
    case 'BodegaDeleted':
      return state && { ...state, deleted: true, version: event.streamVersion };
    default:
      return assertNever(event);
  }
}

export function decideBodega(command: BodegaCommand, state: BodegaState | null): BodegaEvent[] {
  switch (command.type) {
    case 'AddBodega':
      if (state) throw new Conflict('This bodega already exists');
      rejectDuplicate(command.duplicateOf);
      return [
        {
          type: 'BodegaAdded',
          data: { bodega_id: command.bodegaId, created_by: command.createdBy, ...command.fields },
        },
      ];
    case 'EditBodega': {
      const bodega = changeableBy(state, command.actorId, command.expectedVersion, 'edit');
      rejectDuplicate(command.duplicateOf);
      const fields: BodegaFields = {
        ...bodega.fields,
        ...definedOnly(command.text),
        ...coordinatesAfterEdit(bodega.fields, command),
      };
      if (sameFields(fields, bodega.fields)) return [];
      return [{ type: 'BodegaUpdated', data: { bodega_id: bodega.id, ...fields } }];
    }
    case 'VerifyBodega':
      if (!state || state.deleted) throw new NotFound('Bodega not found');
      if (state.isVerified === command.isVerified) return [];
      return [{ type: 'BodegaVerified', data: { bodega_id: state.id, is_verified: command.isVerified } }];
    case 'DeleteBodega': {
      const bodega = changeableBy(state, command.actorId, command.expectedVersion, 'delete');
      return [{ type: 'BodegaDeleted', data: { bodega_id: bodega.id } }];
    }
    default:
      return assertNever(command);
  }
}

/** The caller's coordinates; else, for a moved shop, the geocoder's (or none); else unchanged. */
function coordinatesAfterEdit(
  current: BodegaFields,
  edit: Extract<BodegaCommand, { type: 'EditBodega' }>,
): Pick<BodegaFields, 'latitude' | 'longitude'> {
  if (edit.coordinates) return edit.coordinates;
  if (normalizeText(edit.text.address) === normalizeText(current.address))
    return { latitude: current.latitude, longitude: current.longitude };
  // The address changed since the caller looked it up: someone else edited the bodega meanwhile.
  if (edit.geocoded === undefined) throw new ConcurrencyError();
  return edit.geocoded ?? { latitude: null, longitude: null };
}

function rejectDuplicate(duplicateOf: number | null): void {
  if (duplicateOf !== null)
    throw new Conflict('A bodega with this name and address already exists', 'duplicate_bodega', {
      bodega_id: duplicateOf,
    });
}

function changeableBy(
  state: BodegaState | null,
  actorId: number,
  expectedVersion: number | null,
  action: 'edit' | 'delete',
): BodegaState {
  if (!state || state.deleted) throw new NotFound('Bodega not found');
  if (state.createdBy !== actorId) throw new Forbidden(`You can only ${action} bodegas that you created.`);
  if (expectedVersion !== null && expectedVersion !== state.version) throw new ConcurrencyError();
  return state;
}
