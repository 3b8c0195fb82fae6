// The event store: append with an expected stream version, checked before the sequence is drawn,
// then run the inline projections in the same transaction and NOTIFY async consumers.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { ConcurrencyError } from '../errors.ts';
import { WRITERS_LOCK } from './locks.ts';
import type { Projection } from './projection.ts';
import { upcast } from './upcasters.ts';
import { SCHEMA_VERSIONS, type EventMetadata, type NewEvent, type RecordedEvent } from './types.ts';

export const EVENTS_CHANNEL = 'events';

/** `'any'` skips the check; `0` means the stream must not exist yet. */
export type ExpectedVersion = number | 'any';

export type AppendOptions = {
  metadata?: EventMetadata;
  /** Makes the append happen at most once: a repeat with the same key appends nothing. */
  idempotencyKey?: string;
};

export type AppendResult = {
  events: RecordedEvent[];
  nextVersion: number;
  /** True when the idempotency key had been used already and nothing was appended. */
  duplicate: boolean;
};

export type EventStore = {
  append(
    trx: Kysely<DB>,
    streamId: string,
    expected: ExpectedVersion,
    events: NewEvent[],
    options?: AppendOptions,
  ): Promise<AppendResult>;
  projections: readonly Projection[];
};

/** Transactions that have passed the writer gate already (it is held until they end). */
const gated = new WeakSet<Kysely<DB>>();

/**
 * The writer gate: WRITERS_LOCK, shared, until the transaction ends. Replay's swap takes it
 * exclusively, so it waits for the writers in flight to finish and new ones wait here. Passed at
 * the start of a write transaction (writeTransaction), a writer never holds a lock the swap needs
 * while it waits, so the swap and writers cannot deadlock; append passes it too, for any write
 * that did not.
 */
export async function passWriterGate(trx: Kysely<DB>): Promise<void> {
  if (gated.has(trx)) return;
  await sql`select pg_advisory_xact_lock_shared(${WRITERS_LOCK})`.execute(trx);
  gated.add(trx);
}

/** A transaction that may append events: the writer gate first, then `work`. */
export function writeTransaction<T>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await passWriterGate(trx);
    return work(trx);
  });
}

export function createEventStore(projections: readonly Projection[]): EventStore {
  return {
    projections,
    async append(trx, streamId, expected, events, options = {}) {
      if (!trx.isTransaction) {
        return trx.transaction().execute((t) => this.append(t, streamId, expected, events, options));
      }
      if (events.length === 0) throw new Error('append needs at least one event');
      await passWriterGate(trx);
      if (options.idempotencyKey) {
        const seen = await trx
          .selectFrom('events')
          .select('global_position')
          .where('idempotency_key', '=', options.idempotencyKey)
          .executeTakeFirst();
        if (seen) return { events: [], nextVersion: -1, duplicate: true };
      }
      const nextVersion = await claimVersions(trx, streamId, expected, events.length);
      const firstVersion = nextVersion - events.length + 1;
      const metadata = JSON.stringify(options.metadata ?? {});
      const rows = await trx
        .insertInto('events')
        .values(
          events.map((e, i) => ({
            stream_id: streamId,
            stream_version: firstVersion + i,
            type: e.type,
            schema_version: SCHEMA_VERSIONS[e.type],
            data: JSON.stringify(e.data),
            metadata,
            idempotency_key: i === 0 ? (options.idempotencyKey ?? null) : null,
          })),
        )
        .returning(['global_position', 'transaction_id', 'recorded_at', 'stream_version'])
        .execute();
      const recorded = rows.map(
        (row, i) =>
          ({
            type: events[i]!.type,
            data: events[i]!.data,
            streamId,
            streamVersion: row.stream_version,
            position: Number(row.global_position),
            transactionId: String(row.transaction_id),
            recordedAt: new Date(row.recorded_at as unknown as string),
            metadata: options.metadata ?? {},
          }) as RecordedEvent,
      );
      await applyProjections(trx, projections, recorded);
      await sql`select pg_notify(${EVENTS_CHANNEL}, ${String(recorded.at(-1)!.position)})`.execute(trx);
      return { events: recorded, nextVersion, duplicate: false };
    },
  };
}

async function claimVersions(trx: Kysely<DB>, streamId: string, expected: ExpectedVersion, count: number) {
  if (expected === 'any') {
    const row = await trx
      .insertInto('streams')
      .values({ stream_id: streamId, version: count })
      .onConflict((oc) => oc.column('stream_id').doUpdateSet({ version: sql`streams.version + ${count}` }))
      .returning('version')
      .executeTakeFirstOrThrow();
    return row.version;
  }
  if (expected === 0) {
    const row = await trx
      .insertInto('streams')
      .values({ stream_id: streamId, version: count })
      .onConflict((oc) => oc.column('stream_id').doNothing())
      .returning('version')
      .executeTakeFirst();
    if (!row) throw new ConcurrencyError();
    return row.version;
  }
  const row = await trx
    .updateTable('streams')
    .set({ version: sql`version + ${count}` })
    .where('stream_id', '=', streamId)
    .where('version', '=', expected)
    .returning('version')
    .executeTakeFirst();
  if (!row) throw new ConcurrencyError();
  return row.version;
}

export async function applyProjections(
  trx: Kysely<DB>,
  projections: readonly Projection[],
  events: readonly RecordedEvent[],
): Promise<void> {
  for (const event of events) {
    for (const projection of projections) {
      if (projection.handles.includes(event.type)) await projection.apply(trx, event);
    }
  }
}

/**
 * Applies a batch projection by projection rather than event by event: each projection reads and
 * writes only its own tables, so the outcome is the same, and a projection with `applyBatch` can
 * turn the whole batch into a few set-based statements. Replay uses this.
 */
export async function applyProjectionsInBatch(
  trx: Kysely<DB>,
  projections: readonly Projection[],
  events: readonly RecordedEvent[],
): Promise<void> {
  for (const projection of projections) {
    const handled = events.filter((e) => projection.handles.includes(e.type));
    if (handled.length === 0) continue;
    if (projection.applyBatch) {
      await projection.applyBatch(trx, handled);
    } else {
      for (const event of handled) await projection.apply(trx, event);
    }
  }
}

/** A stream's events of the given types, oldest first. */
export async function readStream(
  db: Kysely<DB>,
  streamId: string,
  types: readonly string[],
): Promise<RecordedEvent[]> {
  const { rows } = await sql<EventRow>`
    select global_position, stream_id, stream_version, type, schema_version, data, metadata,
           transaction_id::text as transaction_id, recorded_at
    from events
    where stream_id = ${streamId} and type = any(${[...types]}::text[])
    order by stream_version`.execute(db);
  return rows.map(toRecordedEvent);
}

/** Draws a new entity id from its sequence, before the append, so the API speaks integers. */
export async function nextId(
  db: Kysely<DB>,
  sequence: 'user_ids' | 'bodega_ids' | 'cat_ids' | 'review_ids' | 'photo_ids',
): Promise<number> {
  const { rows } = await sql<{ id: number }>`select nextval(${sequence}) as id`.execute(db);
  return Number(rows[0]!.id);
}

type EventRow = {
  global_position: number | string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: unknown;
  transaction_id: string;
  recorded_at: Date | string;
};

/** A stored event whose payload is not an event of its type (written around the store). */
export class MalformedEventError extends Error {
  override name = 'MalformedEventError';
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  const data = typeof row.data === 'string' ? JSON.parse(row.data) : row.data;
  const metadata = typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata;
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new MalformedEventError(`${row.type} at position ${row.global_position} has no object payload`);
  return {
    type: row.type,
    data: upcast(row.type, row.schema_version, data as Record<string, unknown>),
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    position: Number(row.global_position),
    transactionId: String(row.transaction_id),
    recordedAt: new Date(row.recorded_at as unknown as string),
    metadata: (metadata ?? {}) as EventMetadata,
  } as RecordedEvent;
}
