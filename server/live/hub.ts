// The open sockets of one api process. Each remembers the last cursor it was sent and skips
// anything at or before it, which makes the hand-over from a replay to the live broadcast safe:
// a socket that is still catching up queues broadcast frames and sends them afterwards.
import WebSocket from 'ws';
import type { Logger } from 'pino';
import { compareCursors, type Cursor } from '../events/consumer.ts';

/** One serialised message, shared by every socket it goes to. */
export type Frame = { cursor: Cursor; bytes: Buffer };

export type LiveClient = {
  socket: WebSocket;
  /** The newest cursor sent; null until the socket has caught up. */
  last: Cursor | null;
  /** Broadcast frames held while the socket catches up; null once it is live. */
  pending: Frame[] | null;
  alive: boolean;
};

export type HubStats = {
  sockets: number;
  catchingUp: number;
  delivered: number;
  droppedSlow: number;
  droppedDead: number;
};

export type HubOptions = { maxBufferedBytes: number; logger: Logger };

export function controlFrame(message: object): Buffer {
  return Buffer.from(JSON.stringify(message));
}

export function createHub(options: HubOptions) {
  const clients = new Set<LiveClient>();
  const counters = { delivered: 0, droppedSlow: 0, droppedDead: 0 };

  function drop(client: LiveClient, reason: 'slow' | 'dead') {
    if (!clients.delete(client)) return;
    if (reason === 'slow') counters.droppedSlow++;
    else counters.droppedDead++;
    options.logger.warn(
      { reason, bufferedBytes: client.socket.bufferedAmount, sockets: clients.size },
      'live socket dropped',
    );
    // terminate, not close: a close frame would wait behind the very backlog we are refusing to keep.
    client.socket.terminate();
  }

  /** Sends raw bytes; false if the socket is gone or was dropped for falling behind. */
  function write(client: LiveClient, bytes: Buffer): boolean {
    if (client.socket.readyState !== WebSocket.OPEN || !clients.has(client)) return false;
    client.socket.send(bytes, { binary: false });
    if (client.socket.bufferedAmount > options.maxBufferedBytes) {
      drop(client, 'slow');
      return false;
    }
    return true;
  }

  function sendNewer(client: LiveClient, frames: readonly Frame[]) {
    for (const frame of frames) {
      if (client.last && compareCursors(frame.cursor, client.last) <= 0) continue;
      if (!write(client, frame.bytes)) return;
      client.last = frame.cursor;
      counters.delivered++;
    }
  }

  return {
    /** Adds a socket that will catch up first: broadcasts are held for it until `goLive`. */
    join(socket: WebSocket): LiveClient {
      const client: LiveClient = { socket, last: null, pending: [], alive: true };
      clients.add(client);
      socket.on('pong', () => (client.alive = true));
      socket.on('close', () => clients.delete(client));
      return client;
    },

    sendControl(client: LiveClient, message: object): boolean {
      return write(client, controlFrame(message));
    },

    /** Sends the catch-up frames (from `from` on), then the held broadcasts, and goes live. */
    goLive(client: LiveClient, from: Cursor, catchUp: readonly Frame[]) {
      client.last = from;
      sendNewer(client, catchUp);
      const held = client.pending ?? [];
      client.pending = null;
      sendNewer(client, held);
    },

    broadcast(frames: readonly Frame[]) {
      if (frames.length === 0) return;
      for (const client of clients) {
        if (client.pending) client.pending.push(...frames);
        else sendNewer(client, frames);
      }
    },

    /** Pings every socket; those that did not answer the previous ping are closed. */
    heartbeat() {
      for (const client of clients) {
        if (!client.alive) {
          drop(client, 'dead');
          continue;
        }
        client.alive = false;
        if (client.socket.readyState === WebSocket.OPEN) client.socket.ping();
      }
    },

    get size() {
      return clients.size;
    },

    stats(): HubStats {
      let catchingUp = 0;
      for (const client of clients) if (client.pending) catchingUp++;
      return { sockets: clients.size, catchingUp, ...counters };
    },

    /** Tells every client the server is going away, so they reconnect elsewhere and resume. */
    closeAll(code = 1001, reason = 'server shutting down') {
      for (const client of clients) client.socket.close(code, reason);
      clients.clear();
    },
  };
}

export type Hub = ReturnType<typeof createHub>;
