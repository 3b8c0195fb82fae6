// Cats and bodegas as targets of what hangs off them (reviews, saves, photos): the one set of
// helpers for "does the target exist" and the rows that go when it is deleted. The lock that orders
// those writes against its deletion is targetLock (locks.ts).
//
//   findTarget     the row ({ id, created_by }) or null; `keyShare` also holds it until commit
//   requireTarget  the same, or the 404 ("Cat not found") every route answers for a missing target
import type { Kysely } from 'kysely';
import { NotFound } from '../errors.ts';
import type { DB, TargetType } from '../db/schema.ts';
import type { RecordedEvent } from './types.ts';
import type { Role } from '../../contract/users.ts';

export type Target = { type: TargetType; id: number };

export type TargetRow = { id: number; created_by: number | null; hidden: boolean };

/** Who reads: a signed-in caller with their role, or null when signed out. */
export type Reader = { id: number; role: Role } | null;

const TARGET_NAMES = { cat: 'Cat', bodega: 'Bodega' } as const;

/** The 404 of a missing cat or bodega: 'Cat not found'. */
export function targetNotFound(target: Pick<Target, 'type'>): NotFound {
  return new NotFound(`${TARGET_NAMES[target.type]} not found`);
}

/** The cat or bodega, or null. With `keyShare`, a concurrent delete of it waits for this transaction. */
export async function findTarget(
  db: Kysely<DB>,
  target: Target,
  options: { keyShare?: boolean } = {},
): Promise<TargetRow | null> {
  const table = target.type === 'cat' ? 'cats' : 'bodegas';
  let query = db.selectFrom(table).select(['id', 'created_by', 'hidden']).where('id', '=', target.id);
  if (options.keyShare) query = query.forKeyShare();
  const row = await query.executeTakeFirst();
  return row
    ? {
        id: Number(row.id),
        created_by: row.created_by === null ? null : Number(row.created_by),
        hidden: row.hidden,
      }
    : null;
}

/**
 * Hidden content is shown to moderators and its creator only; to anyone else it is not there.
 */
export function shownTo(reader: Reader, row: { hidden: boolean; created_by: number | null }): boolean {
  if (!row.hidden || reader?.role === 'moderator') return true;
  return reader !== null && row.created_by !== null && Number(row.created_by) === reader.id;
}

/** requireTarget for a read: a target moderation hid is a 404 to all but who may still see it. */
export async function requireShownTarget(db: Kysely<DB>, target: Target, reader: Reader): Promise<TargetRow> {
  const row = await requireTarget(db, target);
  if (!shownTo(reader, row)) throw targetNotFound(target);
  return row;
}

/** findTarget, or a 404 when the target does not exist. */
export async function requireTarget(
  db: Kysely<DB>,
  target: Target,
  options: { keyShare?: boolean } = {},
): Promise<TargetRow> {
  const row = await findTarget(db, target, options);
  if (!row) throw targetNotFound(target);
  return row;
}

type TargetTable = 'saves' | 'reviews' | 'photos';

export async function removeDeletedTargetRows(
  trx: Kysely<DB>,
  table: TargetTable,
  event: RecordedEvent<'CatDeleted' | 'BodegaDeleted'>,
): Promise<void> {
  const [type, id] =
    event.type === 'CatDeleted'
      ? (['cat', event.data.cat_id] as const)
      : (['bodega', event.data.bodega_id] as const);
  await trx.deleteFrom(table).where('target_type', '=', type).where('target_id', '=', id).execute();
}

/** The moderation events every read table that shows content applies to its `hidden` flag. */
export const VISIBILITY_EVENTS = ['ContentHidden', 'ContentRestored'] as const;
export type VisibilityEvent = RecordedEvent<(typeof VISIBILITY_EVENTS)[number]>;

/** Sets the `hidden` flag of the review or photo a ContentHidden or ContentRestored names. */
export async function applyVisibility(
  trx: Kysely<DB>,
  table: 'reviews' | 'photos',
  event: VisibilityEvent,
): Promise<void> {
  const type = table === 'reviews' ? 'review' : 'photo';
  if (event.data.target_type !== type) return;
  await trx
    .updateTable(table)
    .set({ hidden: event.type === 'ContentHidden' })
    .where('id', '=', event.data.target_id)
    .execute();
}
