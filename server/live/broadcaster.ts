// The broadcaster: one async consumer of the log per api process, on the xmin-safe cursor, that
// turns public events into frames and hands them to the hub. Its cursor lives in memory and
// starts at the head: a restarted process has no sockets to owe anything to, and clients that
// missed events resume with `?after=`.
//
// It keeps the last `replayLimit` events of the log (recent.ts; read once at start, then each
// event it consumes), each with its frame once built, and serves every resume from them: a resume
// reads no events from the log and rebuilds no message, and a cursor older than what it keeps is
// more than `replayLimit` behind, so `reset`. Each frame is sent, live or replayed, only while the
// items it shows are neither hidden nor deleted (visibility.ts), asked of the read tables at the
// time of sending.
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import {
  compareCursors,
  cursorOf,
  cursorOfRow,
  formatCursor,
  headCursor,
  openRows,
  readAfter,
  startLoop,
  START,
  type Cursor,
  type ConsumerLoop,
} from '../events/consumer.ts';
import { personalFieldsOf } from '../events/personal.ts';
import { EVENT_COLUMNS, type EventRow } from '../events/store.ts';
import type { RecordedEvent } from '../events/types.ts';
import type { Frame, Hub } from './hub.ts';
import { createLiveLookups } from './lookups.ts';
import { toLiveMessage } from './messages.ts';
import { RecentEvents, type Built, type Entry } from './recent.ts';
import { itemStates, verdictOf } from './visibility.ts';

export type BroadcasterStats = {
  cursor: string;
  /** Milliseconds from the last broadcast event being recorded to its broadcast. */
  lagMs: number;
  lastBroadcastAt: string | null;
};

export type Broadcaster = {
  /**
   * The frames a socket that saw everything up to `after` has missed, up to the broadcaster's
   * cursor (what it broadcasts next reaches the socket through the hub); null when it has missed
   * more than the replay limit of events up to `head`, the head it was told.
   */
  replay(after: Cursor, head: Cursor): Promise<Frame[] | null>;
  stats(): BroadcasterStats;
  stop(): Promise<void>;
};

export async function startBroadcaster(options: {
  database: Database;
  hub: Hub;
  logger: Logger;
  batchSize: number;
  pollMs: number;
  /** How many events a resume may replay: the broadcaster keeps that many. */
  replayLimit: number;
}): Promise<Broadcaster> {
  const { database, hub, logger } = options;
  const { db } = database;
  const lookups = createLiveLookups(db);
  const kept = await recentEvents(database, options.replayLimit, logger);
  const recent = kept.events;
  let cursor: Cursor = kept.newest;
  let lagMs = 0;
  let lastBroadcastAt: Date | null = null;

  async function build(event: RecordedEvent): Promise<Built | null> {
    const built = await toLiveMessage(event, lookups);
    if (!built) return null;
    return {
      frame: { cursor: cursorOf(event), bytes: Buffer.from(JSON.stringify(built.message)) },
      subjects: built.subjects,
    };
  }

  /** The entry's message, built on first use and kept. */
  function builtOf(entry: Entry): Promise<Built | null> {
    if (entry.built) return entry.built;
    const event = entry.event;
    if (!event) return (entry.built = Promise.resolve(null));
    const building = build(event).then((built) => {
      // Nothing of it is ever sent: its event (perhaps someone's private text) need not be kept.
      if (!built && entry.built === building) entry.event = null;
      return built;
    });
    entry.built = building;
    // A failed build (the database went away) is tried again by the next send that needs it.
    building.catch(() => {
      if (entry.built === building) entry.built = undefined;
    });
    return building;
  }

  /** The entries' frames that may be sent now, in log order. */
  async function sendable(entries: readonly Entry[]): Promise<Frame[]> {
    const built: { entry: Entry; built: Built }[] = [];
    // One at a time, as the broadcast builds them: a resume must not flood the pool with lookups.
    for (const entry of entries) {
      const b = await builtOf(entry);
      if (b) built.push({ entry, built: b });
    }
    let states = await itemStates(
      db,
      built.flatMap((b) => b.built.subjects),
    );
    const frames: (Frame | null)[] = [];
    const again: number[] = [];
    for (const { entry, built: b } of built) {
      const verdict = verdictOf(b.subjects, states);
      if (verdict === 'rebuild') {
        // It shows a primary photo that has since been hidden or deleted: built again as it now is.
        entry.built = undefined;
        again.push(frames.length);
      }
      frames.push(verdict === 'send' ? b.frame : null);
    }
    if (again.length > 0) {
      const rebuilt = await Promise.all(again.map((i) => builtOf(built[i]!.entry)));
      states = await itemStates(
        db,
        rebuilt.flatMap((b) => b?.subjects ?? []),
      );
      again.forEach((i, n) => {
        const b = rebuilt[n];
        if (b && verdictOf(b.subjects, states) === 'send') frames[i] = b.frame;
      });
    }
    return frames.filter((f): f is Frame => f !== null);
  }

  /**
   * Frames built before an account was deleted may hold its reviews' text, its captions and its
   * name: they are built again when next needed, from the log as it now reads, and the person's own
   * events (their text opened before the deletion) are dropped.
   */
  function forgetAccounts(events: readonly RecordedEvent[], batch: readonly Entry[]) {
    const gone = new Set<number>();
    for (const e of events) if (e.type === 'AccountDeleted') gone.add(e.data.user_id);
    if (gone.size === 0) return;
    for (const entry of [...recent.entries(), ...batch]) {
      const personal = entry.event && personalFieldsOf(entry.event.type, entry.event.data);
      if (personal && gone.has(personal.owner)) {
        entry.event = null;
        entry.built = Promise.resolve(null);
      } else if (entry.event) entry.built = undefined;
    }
  }

  async function step(): Promise<number> {
    const events = await readAfter(db, cursor, options.batchSize);
    const last = events.at(-1);
    if (!last) return 0;
    const batch: Entry[] = events.map((event) => ({ cursor: cursorOf(event), event }));
    forgetAccounts(events, batch);
    // With nobody listening the frames are not built now; a socket that resumes later has them
    // built then, once, from the events kept.
    const frames = hub.size > 0 ? await sendable(batch) : [];
    // Kept and broadcast in one go: a socket that joined before this point gets the frames through
    // the hub, one that joins after finds the events kept (hub.ts dedups the overlap).
    recent.append(batch);
    hub.broadcast(frames);
    cursor = cursorOf(last);
    lastBroadcastAt = new Date();
    lagMs = Math.max(0, lastBroadcastAt.getTime() - last.recordedAt.getTime());
    return events.length;
  }

  const loop: ConsumerLoop = await startLoop({
    database,
    step,
    pollMs: options.pollMs,
    onError: (error) => logger.warn({ err: error }, 'live broadcaster step failed; retrying'),
  });

  return {
    async replay(after, head) {
      const entries = recent.after(after);
      if (!entries) return null;
      // What it has missed up to the head: the events kept, and those the broadcaster has yet to
      // reach (usually none; they will come through the hub). Counting them reads only the index.
      const reached = cursor;
      let missed = entries.filter((e) => compareCursors(e.cursor, head) <= 0).length;
      if (compareCursors(reached, head) < 0) {
        missed += await countBetween(db, reached, head, options.replayLimit + 1 - missed);
      }
      return missed > options.replayLimit ? null : sendable(entries);
    },
    stats: () => ({
      cursor: formatCursor(cursor),
      lagMs,
      lastBroadcastAt: lastBroadcastAt?.toISOString() ?? null,
    }),
    stop: () => loop.stop(),
  };
}

/** How many events come after `from` up to `to` (both final), counting no further than `limit`. */
async function countBetween(db: Kysely<DB>, from: Cursor, to: Cursor, limit: number): Promise<number> {
  if (limit <= 0) return 0;
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from (
      select 1 from events
      where (transaction_id, global_position) > (${from.transactionId}::xid8, ${from.position}::bigint)
        and (transaction_id, global_position) <= (${to.transactionId}::xid8, ${to.position}::bigint)
      limit ${limit}) as missed`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The last `capacity` events of the log up to its head, read once at start (their frames are built
 * when a resume first needs them), and the cursor the broadcaster goes on from.
 */
async function recentEvents(
  database: Database,
  capacity: number,
  logger: Logger,
): Promise<{ events: RecentEvents; newest: Cursor }> {
  const head = await headCursor(database.db);
  try {
    // Everything at or before the head is final: the head is below the oldest running transaction.
    const { rows } = await sql<EventRow>`
      select ${EVENT_COLUMNS}
      from events
      where (transaction_id, global_position) <= (${head.transactionId}::xid8, ${head.position}::bigint)
      order by events.transaction_id desc, events.global_position desc
      limit ${capacity + 1}`.execute(database.db);
    rows.reverse();
    // One more than is kept was read: it is the floor, and proves there is more before.
    const floor = rows.length > capacity ? cursorOfRow(rows.shift()!) : START;
    const events = await openRows(database.db, rows);
    const entries = events.map((event) => ({ cursor: cursorOf(event), event }));
    return { events: new RecentEvents(capacity, floor, entries), newest: head };
  } catch (error) {
    // Events this code cannot read (a newer version wrote them): resumes from before the head get
    // `reset` until the broadcaster has consumed newer ones.
    logger.warn(
      { err: error },
      'live broadcaster could not read the recent events; resumes start from the head',
    );
    return { events: new RecentEvents(capacity, head), newest: head };
  }
}
