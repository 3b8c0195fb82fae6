// A real WebSocket client of /api/stream for tests: records every message and waits for them.
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import type { Json } from '../../helpers/json.ts';

export type StreamMessage = { type: string; cursor?: string; at?: string; data?: Json };

export type StreamClient = {
  socket: WebSocket;
  messages: StreamMessage[];
  raw: string[];
  /** Messages other than hello and reset. */
  events(): StreamMessage[];
  waitFor(predicate: (messages: StreamMessage[]) => boolean, timeoutMs?: number): Promise<void>;
  waitForEvents(count: number, timeoutMs?: number): Promise<StreamMessage[]>;
  closed: Promise<{ code: number; reason: string }>;
  close(): Promise<void>;
};

export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return address.replace(/^http/, 'ws');
}

export async function connectStream(
  base: string,
  query = '',
  options: WebSocket.ClientOptions = {},
): Promise<StreamClient> {
  const socket = new WebSocket(`${base}/api/stream${query}`, options);
  const messages: StreamMessage[] = [];
  const raw: string[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    raw.push(data.toString());
    messages.push(JSON.parse(data.toString()) as StreamMessage);
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiters) wake();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const client: StreamClient = {
    socket,
    messages,
    raw,
    events: () => messages.filter((m) => m.type !== 'hello' && m.type !== 'reset'),
    waitFor(predicate, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (predicate(messages)) {
            cleanup();
            resolve();
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out; got ${JSON.stringify(messages.map((m) => m.type))}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async waitForEvents(count, timeoutMs) {
      await client.waitFor(() => client.events().length >= count, timeoutMs);
      return client.events();
    },
    closed,
    async close() {
      if (socket.readyState === WebSocket.CLOSED) return;
      socket.close();
      await closed;
    },
  };
  await client.waitFor((m) => m.some((x) => x.type === 'hello'));
  return client;
}
