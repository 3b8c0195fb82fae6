// The event store: append with an expected stream version, checked before the sequence is drawn,
// then run the inline projections in the same transaction and NOTIFY async consumers (after the
// commit for writes made through writeTransaction).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema.ts';
import { ConcurrencyError, Unauthorized } from '../errors.ts';
import { accountLock, HeldLocks, lockCall, WRITER_GATE, type Lock } from './locks.ts';
import {
  ACCOUNT_GONE,
  heldAccount,
  openEvents,
  sealEventData,
  wrappedKeyOf,
  type HeldAccount,
} from './personal.ts';
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
 * A write as writeTransaction and runCommand run it: the locks it takes first, declared as data,
 * and its work. Its locks are taken in the transaction's first statement, with the writer gate.
 */
export type Write<T> = {
  readonly locks: readonly Lock[];
  run(tx: WriteTx): Promise<T>;
  /**
   * What makes two requests the same write for an Idempotency-Key (see runCommand); the request's
   * body when not given.
   */
  readonly fingerprint?: unknown;
};

/** `write`, then `next` with its result, in the same transaction and under the same locks. */
export function andThen<T, U>(write: Write<T>, next: (result: T, tx: WriteTx) => U | Promise<U>): Write<U> {
  return { ...write, run: async (tx) => next(await write.run(tx), tx) };
}

/**
 * A transaction run by writeTransaction, and what the store knows of it: the locks it holds, the
 * account it holds for a write, and what it appended. It has passed the writer gate (its first
 * statement). Commands get it and pass it to each append and lock of theirs; their queries go to
 * `trx`.
 */
export class WriteTx {
  /**
   * The highest position this transaction appended, 0 while it has appended nothing: its appends
   * leave the NOTIFY to writeTransaction, which sends it once they have committed (notifyAfterCommit).
   */
  appendedUpTo = 0;
  /** The account this write holds (see writeTransaction's `account`), for sealing its author's text. */
  heldAccount: HeldAccount | null = null;
  private readonly locks = new HeldLocks();
  private readonly undo: (() => Promise<void>)[] = [];

  private constructor(readonly trx: Kysely<DB>) {}

  /**
   * writeTransaction's first statement, before any other of the transaction: the writer gate, then
   * `options.locks` and the account's lock, then the account's check. The writer gate is WRITERS_LOCK,
   * shared, until the transaction ends. Replay's swap takes it exclusively, so it waits for the
   * writers in flight to finish and new ones wait here. Taken before anything else, it leaves a
   * writer holding nothing the swap needs while it waits, so the swap and writers cannot deadlock.
   *
   * The account hold orders a signed-in write against the deletion of the writer's account: its
   * lock (accountLock, shared), then a check that the account still exists. An account deletion
   * holds that lock exclusively from its start to its commit, so a write either finishes before the
   * deletion goes on (and what it wrote goes with the account) or gets the lock after the deletion
   * committed and is refused here: 401, nothing written. Without this, a save, a new cat or a
   * recorded key that raced a deletion could land after it, naming a person who no longer exists.
   * The check is account_present, a volatile function, whose query takes its snapshot after the
   * lock (the statement's own snapshot was taken before it, and would miss a deletion the lock
   * waited for). It locks no row: a transaction's first row lock gives it its transaction id, which
   * orders it in the log, and that must wait for the target's lock (see targetLock). The statement
   * also reads the person's wrapped data key: a deletion it waited for has been refused by then,
   * and a key another write of theirs made meanwhile is found when this one's own attempt to make
   * it conflicts (see keyForSealing).
   */
  static async open(trx: Kysely<DB>, options: WriteTransactionOptions): Promise<WriteTx> {
    const tx = new WriteTx(trx);
    const { account } = options;
    if (account === undefined) {
      await tx.take(options.locks ?? [], [], true);
      return tx;
    }
    const row = await tx.take(
      [accountLock(account, 'shared'), ...(options.locks ?? [])],
      [sql`account_present(${account}) as account_present`, sql`${wrappedKeyOf(account)} as wrapped_key`],
      true,
    );
    if (!row?.account_present) throw new Unauthorized(ACCOUNT_GONE);
    tx.heldAccount = heldAccount(account, row.wrapped_key);
    return tx;
  }

  /**
   * Takes the locks of `wanted` this transaction does not hold yet, in one statement, in the order
   * of locks.ts; one that comes before a lock held already is refused (LockOrderError).
   */
  async lock(wanted: readonly Lock[]): Promise<void> {
    await this.take(wanted, [], false);
  }

  /**
   * Work done outside the database (an upload's original, stored before its photo is recorded)
   * that `undo` takes back should the transaction not commit: writeTransaction runs it after the
   * rollback, latest first. Best effort: `undo` reports its own failures and does not throw.
   */
  onRollback(undo: () => Promise<void>): void {
    this.undo.push(undo);
  }

  /** writeTransaction's, once the transaction has rolled back. */
  static async undoAfterRollback(tx: WriteTx): Promise<void> {
    for (const undo of tx.undo.reverse()) await undo().catch(() => {});
  }

  /** `write` in this transaction: the locks it declares (those not held yet), then its work. */
  async run<T>(write: Write<T>): Promise<T> {
    await this.lock(write.locks);
    return write.run(this);
  }

  /** The one place a write's advisory locks are taken: after the gate when `gate`, and before `after`. */
  private async take(wanted: readonly Lock[], after: RawBuilder<unknown>[], gate: boolean) {
    const taking = this.locks.toTake(wanted);
    const columns = [...(gate ? [WRITER_GATE] : []), ...taking.map(lockCall), ...after];
    if (columns.length === 0) return undefined;
    const { rows } = await sql<{
      account_present?: boolean;
      wrapped_key?: unknown;
    }>`select ${sql.join(columns)}`.execute(this.trx);
    this.locks.add(taking);
    return rows[0];
  }
}

export type WriteTransactionOptions = {
  /** Taken in the first statement, after the writer gate (see WriteTx.lock). */
  locks?: readonly Lock[];
  /** The signed-in writer, whose account the transaction holds (see WriteTx.open). */
  account?: number;
};

/**
 * A transaction that may append events: the writer gate and `options`' locks first, in one
 * statement, then `work`. Its appends wake the log's consumers after the commit rather than from
 * inside the transaction (see notifyAfterCommit).
 */
export async function writeTransaction<T>(
  db: Kysely<DB>,
  work: (tx: WriteTx) => Promise<T>,
  options: WriteTransactionOptions = {},
): Promise<T> {
  // Set inside the transaction's callback, so typed as TypeScript cannot follow it there.
  let opened = null as WriteTx | null;
  let result: T;
  try {
    result = await db.transaction().execute(async (trx) => {
      opened = await WriteTx.open(trx, options);
      return work(opened);
    });
  } catch (error) {
    if (opened) await WriteTx.undoAfterRollback(opened);
    throw error;
  }
  const appendedUpTo = opened?.appendedUpTo ?? 0;
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
      // A WriteTx passed the writer gate with its first statement.
      if (!tx) await sql`select ${WRITER_GATE}`.execute(trx);
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
