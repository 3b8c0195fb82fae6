// The event store: append with an expected stream version, checked before the sequence is drawn,
// then run the inline projections in the same transaction and NOTIFY async consumers (after the
// commit for writes made through writeTransaction).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema.ts';
import { ConcurrencyError } from '../errors.ts';
import { WRITERS_LOCK } from './locks.ts';
import { openEvents, sealEventData, type HeldAccount } from './personal.ts';
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
  /**
   * In a write transaction, `to` is its WriteTx. A plain Kysely (tools and tests writing around
   * writeTransaction) gets a transaction of its own when it is not one, passes the writer gate at
   * each append and NOTIFYs from inside the transaction.
   */
  append(
    to: WriteTx | Kysely<DB>,
    streamId: string,
    expected: ExpectedVersion,
    events: NewEvent[],
    options?: AppendOptions,
  ): Promise<AppendResult>;
  projections: readonly Projection[];
};

/**
 * A transaction run by writeTransaction, and what the store knows of it: whether it has passed the
 * writer gate, what its first gate statement takes along, what it appended and which account it
 * holds. Commands get it, and pass it to every append and lock of theirs; their queries go to `trx`.
 */
export class WriteTx {
  /** Has passed the writer gate, which it holds until it ends. */
  gated = false;
  /** What the first passWriterGate call takes before its own locks (see setGatePreamble). */
  preamble: GatePreamble | null = null;
  /**
   * The highest position this transaction appended, 0 while it has appended nothing: its appends
   * leave the NOTIFY to writeTransaction, which sends it once they have committed (notifyAfterCommit).
   */
  appendedUpTo = 0;
  /** The account this write holds (runCommand's account hold), for sealing its author's text. */
  heldAccount: HeldAccount | null = null;

  constructor(readonly trx: Kysely<DB>) {}
}

const WRITER_GATE = sql`pg_advisory_xact_lock_shared(${WRITERS_LOCK})`;

/**
 * The writer gate: WRITERS_LOCK, shared, until the transaction ends. Replay's swap takes it
 * exclusively, so it waits for the writers in flight to finish and new ones wait here. Passed at
 * the start of a write transaction (writeTransaction), a writer never holds a lock the swap needs
 * while it waits, so the swap and writers cannot deadlock; append passes it too, for any write
 * that did not.
 *
 * `locks` (advisory lock calls) are taken right after the gate in the same statement, which saves
 * a command whose first step is taking locks a round trip (see writeTransaction's `gateFirst`).
 * A preamble set on the transaction (setGatePreamble) joins the first call's statement.
 */
export async function passWriterGate(tx: WriteTx, locks: RawBuilder<unknown>[] = []): Promise<void> {
  const preamble = tx.preamble;
  tx.preamble = null;
  const columns = [...(preamble?.locks ?? []), ...locks];
  if (preamble) columns.push(sql`${preamble.check} as preamble_ok`);
  if (preamble?.read) columns.push(sql`${preamble.read} as preamble_read`);
  if (tx.gated && columns.length === 0) return;
  if (!tx.gated) columns.unshift(WRITER_GATE);
  const { rows } = await sql<{
    preamble_ok?: boolean;
    preamble_read?: unknown;
  }>`select ${sql.join(columns)}`.execute(tx.trx);
  tx.gated = true;
  if (preamble && !rows[0]?.preamble_ok) throw preamble.refused();
  preamble?.passed?.(tx, rows[0]?.preamble_read);
}

/** Locks and a check that the transaction's first passWriterGate call takes before its own. */
export type GatePreamble = {
  locks: RawBuilder<unknown>[];
  check: RawBuilder<boolean>;
  /** The error thrown when the check is false. */
  refused(): Error;
  /** Read in the same statement (in its snapshot), and given to `passed` once the check holds. */
  read?: RawBuilder<unknown>;
  passed?(tx: WriteTx, read: unknown): void;
};

/**
 * Has the transaction's first passWriterGate call take `preamble`'s locks before its own and
 * evaluate its check, in the same statement: a caller that must lock something before whatever a
 * command locks first (see runCommand's account hold) adds no round trip of its own. Only for work
 * whose first statement is that call (writeTransaction's `gateFirst`); `preamblePending` tells
 * whether it has been taken.
 */
export function setGatePreamble(tx: WriteTx, preamble: GatePreamble): void {
  tx.preamble = preamble;
}

export function preamblePending(tx: WriteTx): boolean {
  return tx.preamble !== null;
}

export type WriteTransactionOptions = {
  /**
   * The work's first statement is a passWriterGate call (with locks of its own), before any other
   * lock or write, so writeTransaction does not pass the gate separately. append still checks.
   */
  gateFirst?: boolean;
};

/**
 * A transaction that may append events: the writer gate first, then `work`. Its appends wake the
 * log's consumers after the commit rather than from inside the transaction (see notifyAfterCommit).
 */
export async function writeTransaction<T>(
  db: Kysely<DB>,
  work: (tx: WriteTx) => Promise<T>,
  options: WriteTransactionOptions = {},
): Promise<T> {
  let appendedUpTo = 0;
  const result = await db.transaction().execute(async (trx) => {
    const tx = new WriteTx(trx);
    if (!options.gateFirst) await passWriterGate(tx);
    const out = await work(tx);
    appendedUpTo = tx.appendedUpTo;
    return out;
  });
  if (appendedUpTo > 0) notifyAfterCommit(db, appendedUpTo);
  return result;
}

type Notifier = { sending: boolean; position: number; sent: number };
const notifiers = new WeakMap<Kysely<DB>, Notifier>();

/**
 * Wakes the log's consumers (in every process) once appends have committed: a NOTIFY sent on its
 * own, at most one at a time per database handle, covering every append committed before it was
 * sent. A NOTIFY inside the append's transaction would be cheaper to send but makes Postgres
 * serialize those transactions' commits (it takes a database-wide lock from before the commit
 * record is written until the commit is flushed), which defeats group commit under concurrent
 * writes. A NOTIFY is only a wake-up: consumers read the log itself, and poll too, so one lost
 * with a crash between commit and send only delays them until their next poll.
 */
function notifyAfterCommit(db: Kysely<DB>, position: number): void {
  let notifier = notifiers.get(db);
  if (!notifier) {
    notifier = { sending: false, position: 0, sent: 0 };
    notifiers.set(db, notifier);
  }
  const n = notifier;
  n.position = Math.max(n.position, position);
  if (n.sending) return;
  n.sending = true;
  void (async () => {
    try {
      while (n.sent < n.position) {
        const upTo = n.position;
        await sql`select pg_notify(${EVENTS_CHANNEL}, ${String(upTo)})`.execute(db);
        n.sent = upTo;
      }
    } catch {
      // The database is going away or unreachable: consumers' polls pick the events up.
      n.sent = n.position;
    } finally {
      n.sending = false;
    }
  })();
}

/** The statement that moves a stream to its new version, or returns nothing if `expected` is wrong. */
function claimVersions(streamId: string, expected: ExpectedVersion, count: number) {
  if (expected === 'any')
    return sql`insert into streams (stream_id, version) values (${streamId}, ${count})
      on conflict (stream_id) do update set version = streams.version + ${count}
      returning version`;
  if (expected === 0)
    return sql`insert into streams (stream_id, version) values (${streamId}, ${count})
      on conflict (stream_id) do nothing
      returning version`;
  return sql`update streams set version = version + ${count}
      where stream_id = ${streamId} and version = ${expected}
      returning version`;
}

type AppendedRow = {
  global_position: string | number;
  transaction_id: string;
  recorded_at: Date | string;
  stream_version: number;
};

export function createEventStore(projections: readonly Projection[]): EventStore {
  return {
    projections,
    async append(to, streamId, expected, events, options = {}) {
      if (!(to instanceof WriteTx) && !to.isTransaction) {
        return to.transaction().execute((t) => this.append(t, streamId, expected, events, options));
      }
      if (events.length === 0) throw new Error('append needs at least one event');
      const tx = to instanceof WriteTx ? to : null;
      const trx = tx?.trx ?? (to as Kysely<DB>);
      if (tx) await passWriterGate(tx);
      else await sql`select ${WRITER_GATE}`.execute(trx);
      if (options.idempotencyKey) {
        const seen = await trx
          .selectFrom('events')
          .select('global_position')
          .where('idempotency_key', '=', options.idempotencyKey)
          .executeTakeFirst();
        if (seen) return { events: [], nextVersion: -1, duplicate: true };
      }
      // Personal fields go into the log sealed; the projections below get them as written.
      const stored = await sealEventData(trx, events, tx?.heldAccount ?? null);
      // One statement claims the versions (the stream row is the concurrency check: with a wrong
      // `expected` it yields no row, so no event is inserted) and inserts the events in order.
      const count = events.length;
      const notifyLater = tx !== null;
      const { rows } = await sql<AppendedRow>`
        with claimed as (${claimVersions(streamId, expected, count)}),
        appended as (
          insert into events (stream_id, stream_version, type, schema_version, data, metadata, idempotency_key)
          select ${streamId}, claimed.version - ${count} + e.n::int, e.type, e.schema_version, e.data,
                 ${JSON.stringify(options.metadata ?? {})}::jsonb, case when e.n = 1 then ${options.idempotencyKey ?? null}::text end
          from claimed,
               unnest(${events.map((e) => e.type)}::text[], ${events.map((e) => SCHEMA_VERSIONS[e.type])}::smallint[],
                      ${stored.map((data) => JSON.stringify(data))}::jsonb[]) with ordinality as e(type, schema_version, data, n)
          order by e.n
          returning global_position, transaction_id, recorded_at, stream_version
        )
        select global_position, transaction_id::text as transaction_id, recorded_at, stream_version
          ${notifyLater ? sql`` : sql`, (select pg_notify(${EVENTS_CHANNEL}, max(global_position)::text) from appended) as notified`}
        from appended
        order by stream_version`.execute(trx);
      if (rows.length === 0) throw new ConcurrencyError();
      const nextVersion = rows.at(-1)!.stream_version;
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
      if (tx) tx.appendedUpTo = Math.max(tx.appendedUpTo, recorded.at(-1)!.position);
      return { events: recorded, nextVersion, duplicate: false };
    },
  };
}

export async function applyProjections(
  trx: Kysely<DB>,
  projections: readonly Projection[],
  events: readonly RecordedEvent[],
): Promise<void> {
  for (const event of events) {
    for (const projection of projections) {
      if (projection.apply && projection.handles.includes(event.type)) await projection.apply(trx, event);
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
    } else if (projection.apply) {
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
    select ${EVENT_COLUMNS}
    from events
    where stream_id = ${streamId} and type = any(${[...types]}::text[])
    order by stream_version`.execute(db);
  return openEvents(db, rows.map(toRecordedEvent));
}

/** Draws a new entity id from its sequence, before the append, so the API speaks integers. */
export async function nextId(
  db: Kysely<DB>,
  sequence: 'user_ids' | 'bodega_ids' | 'cat_ids' | 'review_ids' | 'photo_ids' | 'report_ids',
): Promise<number> {
  const { rows } = await sql<{ id: number }>`select nextval(${sequence}) as id`.execute(db);
  return Number(rows[0]!.id);
}

export type EventRow = {
  global_position: number | string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: unknown;
  transaction_id: string;
  /** Milliseconds since the epoch when read with EVENT_COLUMNS. */
  recorded_at: Date | string | number;
};

/**
 * The columns every reader of stored events selects, for toRecordedEvent. The time comes as
 * milliseconds (a Date holds no finer), which costs the client far less than parsing a timestamp
 * text: a replay of a million events spent 0.9 s of its main thread on that.
 */
export const EVENT_COLUMNS = sql`global_position, stream_id, stream_version, type, schema_version, data, metadata,
  transaction_id::text as transaction_id, (extract(epoch from recorded_at) * 1000)::float8 as recorded_at`;

/** A stored event whose payload is not an event of its type (written around the store). */
export class MalformedEventError extends Error {
  override name = 'MalformedEventError';
}

/** The stored row as an event, upcast; personal fields are still sealed until openEvents. */
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
