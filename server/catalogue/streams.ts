// Loads an aggregate inside a write transaction: locks its stream row, then folds its events.
// Row locks come after the advisory locks (a bodega's name, a deletion's photo and target locks; see
// events/locks.ts) and are always taken in the order bodega stream, cat stream, so concurrent writes
// to a bodega and its cats wait for each other instead of deadlocking.
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { readStream } from '../events/store.ts';
import { streamIds, type RecordedEvent } from '../events/types.ts';
import { BODEGA_EVENTS, evolveBodega, type BodegaEventType, type BodegaState } from './bodega.ts';
import { CAT_EVENTS, evolveCat, type CatEventType, type CatState } from './cat.ts';

/** `share` lets other writers add cats alongside; `update` excludes every other writer. */
export type LockMode = 'share' | 'update';

export async function loadBodega(trx: Kysely<DB>, id: number, mode: LockMode): Promise<BodegaState | null> {
  const { version, events } = await lockAndRead(trx, streamIds.bodega(id), mode, BODEGA_EVENTS);
  const state = (events as RecordedEvent<BodegaEventType>[]).reduce(evolveBodega, null);
  return state && { ...state, version };
}

export async function loadCat(trx: Kysely<DB>, id: number, mode: LockMode): Promise<CatState | null> {
  const { version, events } = await lockAndRead(trx, streamIds.cat(id), mode, CAT_EVENTS);
  const state = (events as RecordedEvent<CatEventType>[]).reduce(evolveCat, null);
  return state && { ...state, version };
}

async function lockAndRead(
  trx: Kysely<DB>,
  streamId: string,
  mode: LockMode,
  types: readonly string[],
): Promise<{ version: number; events: RecordedEvent[] }> {
  const lock = trx.selectFrom('streams').select('version').where('stream_id', '=', streamId);
  const stream = await (mode === 'update' ? lock.forUpdate() : lock.forShare()).executeTakeFirst();
  if (!stream) return { version: 0, events: [] };
  // The stream's own version, which appends are checked against, even if other kinds of events
  // ever join the stream.
  return { version: stream.version, events: await readStream(trx, streamId, types) };
}
