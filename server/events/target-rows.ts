// What hangs off a cat or a bodega (its reviews, saves and photos): rows keyed by (target_type,
// target_id) that go when it is deleted, and the lock that keeps those writes and the deletion in
// the order the log replays them.
import { sql, type Kysely } from 'kysely';
import { NotFound } from '../errors.ts';
import type { DB, TargetType } from '../db/schema.ts';
import type { RecordedEvent } from './types.ts';

export type Target = { type: TargetType; id: number };

const TARGET_NAMES = { cat: 'Cat', bodega: 'Bodega' } as const;

/**
 * Takes the target's advisory lock: shared for a review, save or upload, exclusive for its
 * deletion. It must come before the transaction's first row lock or write. Replay applies
 * transactions in transaction-id order, and a transaction gets its id at its first row lock or
 * write; an advisory lock gives none. So when one of these has to wait for another, it gets its id
 * only after the other has committed, and comes after it in the log, as it did in the live tables.
 * (Without it, a review could take its id after a concurrent deletion took its own, commit first,
 * be removed by the deletion, and come back when the log is replayed.)
 */
export async function lockTarget(
  trx: Kysely<DB>,
  target: Target,
  mode: 'share' | 'exclusive',
): Promise<void> {
  const key = `target-${target.type}-${target.id}`;
  if (mode === 'share')
    await sql`select pg_advisory_xact_lock_shared(hashtextextended(${key}, 0))`.execute(trx);
  else await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
}

/** Shares the target's locks until commit, or answers 404 ("Cat not found") when it is gone. */
export async function holdTarget(trx: Kysely<DB>, target: Target): Promise<void> {
  await lockTarget(trx, target, 'share');
  const table = target.type === 'cat' ? 'cats' : 'bodegas';
  const row = await trx
    .selectFrom(table)
    .select('id')
    .where('id', '=', target.id)
    .forKeyShare()
    .executeTakeFirst();
  if (!row) throw new NotFound(`${TARGET_NAMES[target.type]} not found`);
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
