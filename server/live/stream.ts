// One socket's life on the stream: hello with the head, an optional bounded replay of what it
// missed, then the live broadcast, in log order and never twice (the hub dedups by cursor).
import type WebSocket from 'ws';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import { compareCursors, formatCursor, headCursor, type Cursor } from '../events/consumer.ts';
import type { Broadcaster } from './broadcaster.ts';
import type { Hub, LiveClient } from './hub.ts';

export type StreamDeps = {
  database: Database;
  hub: Hub;
  broadcaster: Broadcaster;
  logger: Logger;
};

export async function openStream(socket: WebSocket, after: Cursor | null, deps: StreamDeps): Promise<void> {
  const { hub } = deps;
  // Join before reading the head: whatever the broadcaster sends from now on is held for this
  // socket, and whatever it sent before is at or below the head read next, or among the events it
  // keeps for replays.
  const client = hub.join(socket);
  try {
    const head = await headCursor(deps.database.db);
    hub.sendControl(client, { type: 'hello', cursor: formatCursor(head) });
    if (!after) return hub.goLive(client, head, []);
    // A cursor past the head was never given out by this log (another database, a restore).
    if (compareCursors(after, head) > 0) return reset(client, head, deps);
    // Served from the events the broadcaster keeps; too far behind (more than the replay limit) is
    // answered without reading a single event.
    const missed = await deps.broadcaster.replay(after, head);
    if (!missed) return reset(client, head, deps);
    hub.goLive(client, after, missed);
  } catch (error) {
    deps.logger.warn({ err: error }, 'live stream could not start a socket');
    socket.close(1011, 'stream unavailable, try again');
  }
}

/** Too far behind to replay: the client refetches, then follows on from the head. */
function reset(client: LiveClient, head: Cursor, deps: StreamDeps): void {
  deps.hub.sendControl(client, { type: 'reset', cursor: formatCursor(head) });
  deps.hub.goLive(client, head, []);
}
