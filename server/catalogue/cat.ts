// The cat aggregate: its state folded from its own stream, and the pure decisions on it.
import { definedOnly, sameFields } from './fields.ts';
import { ConcurrencyError, Conflict, Forbidden, NotFound } from '../errors.ts';
import { assertNever, type CatFields, type NewEvent, type RecordedEvent } from '../events/types.ts';

export const CAT_EVENTS = ['CatAdded', 'CatUpdated', 'CatDeleted'] as const;
export type CatEventType = (typeof CAT_EVENTS)[number];
export type CatEvent = NewEvent<CatEventType>;

export type CatState = {
  id: number;
  bodegaId: number;
  createdBy: number | null;
  fields: CatFields;
  version: number;
  deleted: boolean;
};

/** An edit names the cat; any other field it leaves out keeps its value. */
export type CatEdit = Partial<CatFields> & { name: string };

export type CatCommand =
  | { type: 'AddCat'; catId: number; bodegaId: number; createdBy: number | null; fields: CatFields }
  | { type: 'EditCat'; actorId: number; expectedVersion: number | null; edit: CatEdit }
  | { type: 'DeleteCat'; actorId: number; expectedVersion: number | null }
  /** Its bodega is being deleted: no creator check, the bodega's creator decided. */
  | { type: 'DeleteCatWithBodega'; bodegaId: number };

export function evolveCat(state: CatState | null, event: RecordedEvent<CatEventType>): CatState | null {
  switch (event.type) {
    case 'CatAdded': {
      const { cat_id, bodega_id, created_by, ...fields } = event.data;
      return {
        id: cat_id,
        bodegaId: bodega_id,
        createdBy: created_by,
        fields,
        version: event.streamVersion,
        deleted: false,
      };
    }
    case 'CatUpdated': {
      if (!state) return state;
      const { cat_id: _, ...fields } = event.data;
      return { ...state, fields, version: event.streamVersion };
    }
    case 'CatDeleted':
      return state && { ...state, deleted: true, version: event.streamVersion };
    default:
      return assertNever(event);
  }
}

export function decideCat(command: CatCommand, state: CatState | null): CatEvent[] {
  switch (command.type) {
    case 'AddCat':
      if (state) throw new Conflict('This cat already exists');
      return [
        {
          type: 'CatAdded',
          data: {
            cat_id: command.catId,
            bodega_id: command.bodegaId,
            created_by: command.createdBy,
            ...command.fields,
          },
        },
      ];
    case 'EditCat': {
      const cat = changeableBy(state, command.actorId, command.expectedVersion, 'edit');
      const fields = { ...cat.fields, ...definedOnly(command.edit) };
      if (sameFields(fields, cat.fields)) return [];
      return [{ type: 'CatUpdated', data: { cat_id: cat.id, ...fields } }];
    }
    case 'DeleteCat': {
      const cat = changeableBy(state, command.actorId, command.expectedVersion, 'delete');
      return [{ type: 'CatDeleted', data: { cat_id: cat.id, bodega_id: cat.bodegaId } }];
    }
    case 'DeleteCatWithBodega':
      if (!state || state.deleted || state.bodegaId !== command.bodegaId) return [];
      return [{ type: 'CatDeleted', data: { cat_id: state.id, bodega_id: state.bodegaId } }];
    default:
      return assertNever(command);
  }
}

function changeableBy(
  state: CatState | null,
  actorId: number,
  expectedVersion: number | null,
  action: 'edit' | 'delete',
): CatState {
  if (!state || state.deleted) throw new NotFound('Cat not found');
  if (state.createdBy !== actorId) throw new Forbidden(`You can only ${action} cats that you created.`);
  if (expectedVersion !== null && expectedVersion !== state.version) throw new ConcurrencyError();
  return state;
}
