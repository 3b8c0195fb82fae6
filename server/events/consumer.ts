// Async consumers of the log. They read on the (transaction_id, global_position) cursor, only below
// the oldest transaction of this database still running, so an event committed out of position
// order is never skipped. A checkpointed consumer stores its cursor in the same transaction as its
// effect.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { isTransientError } from '../dependency-errors.ts';
import { openEvents } from './personal.ts';
import { EVENTS_CHANNEL, EVENT_COLUMNS, type EventRow, toRecordedEvent } from './store.ts';
import { NewerEventError } from './upcasters.ts';
import type { RecordedEvent } from './types.ts';

export type Cursor = { transactionId: string; position: number };
export const START: Cursor = { transactionId: '0', position: 0 };

export function formatCursor(c: Cursor): string {
  return `${c.transactionId}-${c.position}`;
}

/** The largest transaction id (xid8, unsigned 64-bit). */
const MAX_TRANSACTION_ID = 2n ** 64n - 1n;

/**
 * A cursor as formatCursor writes it, or null. Each part must fit where the log keeps it: the
 * transaction id in xid8, the position in a bigint that JavaScript also holds exactly (positions
 * come from a sequence and never get near 2^53), so a cursor that parses never fails in SQL.
 */
export function parseCursor(raw: string): Cursor | null {
  const m = /^(\d{1,20})-(\d{1,16})$/.exec(raw);
  if (!m) return null;
  const transactionId = BigInt(m[1]!);
  const position = Number(m[2]);
  if (transactionId > MAX_TRANSACTION_ID || !Number.isSafeInteger(position)) return null;
  // Written back without leading zeros: compareCursors tells transactions apart by their text.
  return { transactionId: transactionId.toString(), position };
}

export function cursorOf(event: RecordedEvent): Cursor {
  return { transactionId: event.transactionId, position: event.position };
}

/** Log order: by transaction id (as a number), then position. */
export function compareCursors(a: Cursor, b: Cursor): number {
  if (a.transactionId !== b.transactionId) return BigInt(a.transactionId) < BigInt(b.transactionId) ? -1 : 1;
  return a.position - b.position;
}

/**
 * The log's horizon: the snapshot's xmin. Every transaction below it has ended and its events are
 * in this statement's snapshot. It is server-wide: a long transaction in any database on the same
 * server holds consumers back until it ends (see the README). Skipping transactions that
 * pg_stat_activity attributes to other databases would avoid that, but reading pg_stat_activity on
 * every poll made the live stream an order of magnitude slower under bursts of appends.
 */
const HORIZON = sql`pg_snapshot_xmin(pg_current_snapshot())`;

/**
 * The type given to an event whose stored payload cannot be read: it keeps its place in the log
 * (consumers move past it), matches no handler, and checkpointed consumers park it.
 */
export const MALFORMED = '$malformed';

function decode(row: Parameters<typeof toRecordedEvent>[0]): RecordedEvent {
  try {
    return toRecordedEvent(row);
  } catch (error) {
    if (error instanceof NewerEventError) throw error;
    return {
      type: MALFORMED,
      data: { stored_type: row.type, error: error instanceof Error ? error.message : String(error) },
      streamId: row.stream_id,
      streamVersion: row.stream_version,
      position: Number(row.global_position),
      transactionId: String(row.transaction_id),
      recordedAt: new Date(row.recorded_at as unknown as string),
      metadata: {},
    } as unknown as RecordedEvent;
  }
}

/** Events after the cursor that every future reader will also see: all below the horizon. */
export async function readAfter(db: Kysely<DB>, cursor: Cursor, limit: number): Promise<RecordedEvent[]> {
  return openRows(db, await readRowsAfter(db, cursor, limit));
}

/**
 * The stored rows readAfter reads, before they are decoded and opened: replay opens each batch
 * while the database reads the next one after it (cursorOfRow).
 */
export async function readRowsAfter(db: Kysely<DB>, cursor: Cursor, limit: number): Promise<EventRow[]> {
  // ORDER BY names are qualified on purpose: bare, they would sort by the text alias selected.
  const { rows } = await sql<EventRow>`
    select ${EVENT_COLUMNS}
    from events
    where transaction_id < ${HORIZON}
      and (transaction_id, global_position) > (${cursor.transactionId}::xid8, ${cursor.position}::bigint)
    order by events.transaction_id, events.global_position
    limit ${limit}`.execute(db);
  return rows;
}

/** Stored rows as events: decoded, upcast, and with their personal fields opened. */
export function openRows(db: Kysely<DB>, rows: readonly EventRow[]): Promise<RecordedEvent[]> {
  return openEvents(db, rows.map(decode));
}

/** The cursor of a stored row, as cursorOf gives it for the event the row becomes. */
export function cursorOfRow(row: EventRow): Cursor {
  return { transactionId: String(row.transaction_id), position: Number(row.global_position) };
}

/** The cursor of the newest event that is safe to read now (the head a new reader starts from). */
export async function headCursor(db: Kysely<DB>): Promise<Cursor> {
  const { rows } = await sql<{ transaction_id: string; global_position: number }>`
    select transaction_id::text as transaction_id, global_position
    from events
    where transaction_id < ${HORIZON}
    order by events.transaction_id desc, events.global_position desc
    limit 1`.execute(db);
  const row = rows[0];
  return row ? { transactionId: row.transaction_id, position: Number(row.global_position) } : START;
}

export type ConsumerLoop = {
  /** Ask for a run now (NOTIFY calls this too). */
  wake(): void;
  /**
   * Resolves once every event committed before the call has been handled (or after `timeoutMs`).
   * A long transaction in this database holds events back until it ends (see HORIZON).
   */
  drain(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
};

export type LoopOptions = {
  database: Database;
  /** Handles one batch; returns how many events it consumed (0 = caught up). */
  step(): Promise<number>;
  pollMs?: number;
  onError?(error: unknown): void;
  /** How many events at or below `position` are still to be handled (used by drain). */
  pending?(position: number): Promise<number>;
};

/** Runs `step` whenever woken by NOTIFY, on a slow poll, and again while batches come back full. */
export async function startLoop(options: LoopOptions): Promise<ConsumerLoop> {
  const pollMs = options.pollMs ?? 1000;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;

  const run = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          while (!stopped && (await options.step()) > 0) {
            /* keep going while there is work */
          }
        } while (again && !stopped);
      } catch (error) {
        options.onError?.(error);
      } finally {
        running = null;
      }
    })();
    return running;
  };

  const unlisten = await options.database.listen(EVENTS_CHANNEL, () => void run()).catch(() => null);
  const timer = setInterval(() => void run(), pollMs);
  timer.unref();
  void run();

  return {
    wake: () => void run(),
    async drain(timeoutMs = 30_000) {
      const { rows } = await sql<{ p: number | null }>`select max(global_position) as p from events`.execute(
        options.database.db,
      );
      const head = Number(rows[0]?.p ?? 0);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await run();
        while (running) await running;
        const left = options.pending ? await options.pending(head) : 0;
        if (left === 0 || Date.now() > deadline) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await unlisten?.();
      while (running) await running;
    },
  };
}

export type CheckpointedConsumer = {
  name: string;
  batchSize?: number;
  /** The effect of a batch; runs in the transaction that also advances the checkpoint. */
  handle(trx: Kysely<DB>, events: RecordedEvent[]): Promise<void>;
  /** Runs after a batch's transaction committed (for effects that must only start then). */
  afterCommit?(events: RecordedEvent[]): void;
  /**
   * The effect talks to another system (Redis): run it outside any transaction, so no database
   * transaction waits on that system, then advance the checkpoint in a short one. The effect must
   * be idempotent: if another process advanced the checkpoint meanwhile, both effects happened.
   */
  effectOutsideTransaction?: boolean;
  /**
   * An event that fails on its own is parked only once it has failed this many times over at
   * least this long, so an outage the error classifier does not recognise parks nothing.
   */
  parkAfter?: { tries: number; ms: number };
};

const PARK_AFTER = { tries: 5, ms: 60_000 };

/** Per consumer: the event now failing on its own, since when, and how often. */
const failing = new Map<string, { position: number; tries: number; since: number }>();

/** Counts a failure of `event` alone; true once it has failed often and long enough to park. */
function readyToPark(consumer: CheckpointedConsumer, event: RecordedEvent): boolean {
  const limit = consumer.parkAfter ?? PARK_AFTER;
  const now = Date.now();
  const known = failing.get(consumer.name);
  const state =
    known && known.position === event.position ? known : { position: event.position, tries: 0, since: now };
  state.tries += 1;
  failing.set(consumer.name, state);
  if (state.tries < limit.tries || now - state.since < limit.ms) return false;
  failing.delete(consumer.name);
  return true;
}

/**
 * One step of a checkpointed consumer. The subscription row is locked (SKIP LOCKED), so several
 * processes may run the same consumer and each batch is still handled by exactly one of them.
 *
 * A batch that fails for a reason other than trouble around it (see isTransientError) or an event
 * from newer code is retried one event at a time, and an event that keeps failing on its own (see
 * parkAfter) is parked (parked_events) so the consumer goes on. Malformed events are parked at once.
 */
export async function consumeBatch(database: Database, consumer: CheckpointedConsumer): Promise<number> {
  const { db } = database;
  await db
    .insertInto('subscriptions')
    .values({ name: consumer.name })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const size = consumer.batchSize ?? 200;
  try {
    return await runBatch(database, consumer, size, false);
  } catch (error) {
    if (!isPoison(error)) throw error;
    return runBatch(database, consumer, 1, true);
  }
}

/** An error that retrying the same events cannot cure. */
function isPoison(error: unknown): boolean {
  return !isTransientError(error) && !(error instanceof NewerEventError);
}

type Parked = { event: RecordedEvent; error: string };

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 2000);

async function park(trx: Kysely<DB>, consumer: string, parked: Parked[]): Promise<void> {
  if (parked.length === 0) return;
  await trx
    .insertInto('parked_events')
    .values(
      parked.map(({ event, error }) => ({
        consumer,
        global_position: event.position,
        type: isMalformed(event) ? String((event.data as { stored_type?: string }).stored_type) : event.type,
        error,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

const isMalformed = (event: RecordedEvent) => (event.type as string) === MALFORMED;

function split(events: RecordedEvent[]): { good: RecordedEvent[]; parked: Parked[] } {
  const good: RecordedEvent[] = [];
  const parked: Parked[] = [];
  for (const event of events) {
    if (isMalformed(event)) parked.push({ event, error: String((event.data as { error?: string }).error) });
    else good.push(event);
  }
  return { good, parked };
}

/**
 * Moves the checkpoint to `last` and parks `parked` with it, in `trx`. With `from`, only if the
 * checkpoint is still there (compare-and-set); otherwise nothing is written.
 */
async function advance(
  trx: Kysely<DB>,
  name: string,
  from: Cursor | null,
  last: RecordedEvent,
  parked: Parked[],
): Promise<void> {
  const unchanged = from
    ? sql`and last_transaction_id = ${from.transactionId}::xid8 and last_position = ${from.position}`
    : sql``;
  const { rows } = await sql`
    update subscriptions
    set last_transaction_id = ${last.transactionId}::xid8, last_position = ${last.position}, updated_at = now()
    where name = ${name} ${unchanged}
    returning name`.execute(trx);
  if (rows.length > 0) await park(trx, name, parked);
}

async function runBatch(
  database: Database,
  consumer: CheckpointedConsumer,
  size: number,
  isolate: boolean,
): Promise<number> {
  const { db } = database;
  if (consumer.effectOutsideTransaction) {
    const sub = await db
      .selectFrom('subscriptions')
      .select([sql<string>`last_transaction_id::text`.as('tx'), 'last_position'])
      .where('name', '=', consumer.name)
      .executeTakeFirst();
    if (!sub) return 0;
    const cursor = { transactionId: sub.tx, position: Number(sub.last_position) };
    const events = await readAfter(db, cursor, size);
    if (events.length === 0) return 0;
    const { good, parked } = split(events);
    try {
      if (good.length > 0) await consumer.handle(db, good);
    } catch (error) {
      if (!isolate || !isPoison(error) || !readyToPark(consumer, good[0]!)) throw error;
      parked.push({ event: good[0]!, error: message(error) });
    }
    // Compare-and-set: if another process moved the checkpoint meanwhile, it handled these events
    // too and parked whatever it had to.
    await db.transaction().execute((trx) => advance(trx, consumer.name, cursor, events.at(-1)!, parked));
    consumer.afterCommit?.(good);
    return events.length;
  }

  let handled: RecordedEvent[] = [];
  const count = await db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ last_transaction_id: string; last_position: number }>`
      select last_transaction_id::text as last_transaction_id, last_position
      from subscriptions where name = ${consumer.name} for update skip locked`.execute(trx);
    const sub = rows[0];
    if (!sub) return 0;
    const cursor = { transactionId: sub.last_transaction_id, position: Number(sub.last_position) };
    const events = await readAfter(trx, cursor, size);
    if (events.length === 0) return 0;
    const { good, parked } = split(events);
    if (good.length > 0) {
      if (!isolate) await consumer.handle(trx, good);
      else {
        await sql`savepoint consume_one`.execute(trx);
        try {
          await consumer.handle(trx, good);
        } catch (error) {
          if (!isPoison(error) || !readyToPark(consumer, good[0]!)) throw error;
          await sql`rollback to savepoint consume_one`.execute(trx);
          parked.push({ event: good[0]!, error: message(error) });
        }
      }
    }
    await advance(trx, consumer.name, null, events.at(-1)!, parked);
    handled = good;
    return events.length;
  });
  if (handled.length > 0) consumer.afterCommit?.(handled);
  return count;
}

export async function startCheckpointedConsumer(
  database: Database,
  consumer: CheckpointedConsumer,
  options: { pollMs?: number; onError?(error: unknown): void } = {},
): Promise<ConsumerLoop> {
  return startLoop({
    database,
    step: () => consumeBatch(database, consumer),
    pending: async (position) => {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from events e
        left join subscriptions s on s.name = ${consumer.name}
        where e.global_position <= ${position}
          and (s.name is null or (e.transaction_id, e.global_position) > (s.last_transaction_id, s.last_position))`.execute(
        database.db,
      );
      return Number(rows[0]?.n ?? 0);
    },
    ...options,
  });
}

/** Lag of a checkpointed consumer, in events and in seconds since the oldest unhandled event. */
export async function consumerLag(
  db: Kysely<DB>,
  name: string,
): Promise<{ events: number; seconds: number }> {
  const { rows } = await sql<{ events: number; oldest: Date | null }>`
    select count(*)::int as events, min(e.recorded_at) as oldest
    from events e, subscriptions s
    where s.name = ${name}
      and (e.transaction_id, e.global_position) > (s.last_transaction_id, s.last_position)`.execute(db);
  const row = rows[0];
  if (!row || !row.oldest) return { events: 0, seconds: 0 };
  return {
    events: Number(row.events),
    seconds: Math.max(0, (Date.now() - new Date(row.oldest).getTime()) / 1000),
  };
}
