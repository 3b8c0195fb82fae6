// The broadcaster: one async consumer of the log per api process, on the xmin-safe cursor, that
// turns public events into frames and hands them to the hub. Its cursor lives in memory and
// starts at the head: a restarted process has no sockets to owe anything to, and clients that
// missed events resume with `?after=`.
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import {
  cursorOf,
  formatCursor,
  headCursor,
  readAfter,
  startLoop,
  type Cursor,
  type ConsumerLoop,
} from '../events/consumer.ts';
import { ERASED } from '../events/personal.ts';
import type { RecordedEvent } from '../events/types.ts';
import type { Frame, Hub } from './hub.ts';
import { createLiveLookups } from './lookups.ts';
import { toLiveMessage } from './messages.ts';

const FRAME_CACHE = 4096;

export type BroadcasterStats = {
  cursor: string;
  /** Milliseconds from the last broadcast event being recorded to its broadcast. */
  lagMs: number;
  lastBroadcastAt: string | null;
};

export type Broadcaster = {
  /** Frames of public events, built once per event and shared by broadcasts and replays. */
  framesOf(events: readonly RecordedEvent[]): Promise<Frame[]>;
  stats(): BroadcasterStats;
  stop(): Promise<void>;
};

export async function startBroadcaster(options: {
  database: Database;
  hub: Hub;
  logger: Logger;
  batchSize: number;
  pollMs: number;
}): Promise<Broadcaster> {
  const { database, hub, logger } = options;
  const lookups = createLiveLookups(database.db);
  const cache = new Map<string, Frame | null>();
  let cursor: Cursor = await headCursor(database.db);
  let lagMs = 0;
  let lastBroadcastAt: Date | null = null;

  async function frameOf(event: RecordedEvent): Promise<Frame | null> {
    const key = formatCursor(cursorOf(event));
    // A review whose author has gone since its frame was built (see step) is never sent.
    if (event.type === 'ReviewPosted' && event.data.comment === ERASED) return null;
    const known = cache.get(key);
    if (known !== undefined) return known;
    const message = await toLiveMessage(event, lookups);
    const frame = message ? { cursor: cursorOf(event), bytes: Buffer.from(JSON.stringify(message)) } : null;
    if (cache.size >= FRAME_CACHE) cache.delete(cache.keys().next().value!);
    cache.set(key, frame);
    return frame;
  }

  async function framesOf(events: readonly RecordedEvent[]): Promise<Frame[]> {
    const frames: Frame[] = [];
    for (const event of events) {
      const frame = await frameOf(event);
      if (frame) frames.push(frame);
    }
    return frames;
  }

  async function step(): Promise<number> {
    const events = await readAfter(database.db, cursor, options.batchSize);
    const last = events.at(-1);
    if (!last) return 0;
    // Frames built before an account was deleted may hold its reviews' text and its name: none
    // may be replayed to a reconnecting socket, so they are built again from the log.
    if (events.some((e) => e.type === 'AccountDeleted')) cache.clear();
    // With nobody listening the frames are not built; a socket that joins later catches up from
    // the log itself (see stream.ts), so nothing is owed to it.
    if (hub.size > 0) hub.broadcast(await framesOf(events));
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
    framesOf,
    stats: () => ({
      cursor: formatCursor(cursor),
      lagMs,
      lastBroadcastAt: lastBroadcastAt?.toISOString() ?? null,
    }),
    stop: () => loop.stop(),
  };
}
