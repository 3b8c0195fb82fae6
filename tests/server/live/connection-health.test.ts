import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { liveStats } from '../../../server/live/stats.ts';
import type { LiveSettings } from '../../../server/config.ts';
import { createTestApp, testConfig, type TestApp } from '../../helpers/app.ts';
import { connectStream, listenOnLoopback, type StreamClient } from './stream-client.ts';
import { publisher } from './publish.ts';

function appWith(live: Partial<LiveSettings>): Promise<TestApp> {
  return createTestApp({ worker: false, config: { live: { ...testConfig().live, ...live } } });
}

/** A client that completes the WebSocket handshake and then never reads another byte. */
async function stalledClient(base: string): Promise<net.Socket> {
  const { hostname, port } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  socket.write(
    [
      'GET /api/stream HTTP/1.1',
      `Host: ${hostname}:${port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      '',
      '',
    ].join('\r\n'),
  );
  await new Promise<void>((resolve) => socket.once('data', () => resolve()));
  socket.pause();
  return socket;
}

const until = async (check: () => boolean, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('a client that cannot keep up', () => {
  let t: TestApp;
  let base: string;
  const open: StreamClient[] = [];
  beforeAll(async () => {
    t = await appWith({ maxBufferedBytes: 512 * 1024 });
    base = await listenOnLoopback(t.app);
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await t.close();
  });

  it('is dropped once its send buffer passes the bound, and the others get everything', async () => {
    const keeping = [await connectStream(base), await connectStream(base)];
    open.push(...keeping);
    const stalled = await stalledClient(base);
    const stalledClosed = new Promise<void>((resolve) => stalled.on('close', () => resolve()));
    const before = liveStats();
    await until(() => liveStats().sockets === before.sockets && before.sockets >= 3);

    const publish = publisher(t.services);
    const bodegaId = await publish.bodega('Chatty Deli');
    // ~8 MB in all, well past what the kernel's socket buffers absorb for a reader that never reads.
    const count = 32;
    const bulk = 'meow '.repeat(50_000);
    for (let i = 0; i < count; i++) {
      const reviewer = await publish.user(`verbose_${i}`);
      await publish.review(reviewer, 'bodega', bodegaId, 5, `${i} ${bulk}`);
      // The others keep up: each has read this one before the next is written (embedded PGlite
      // shares this thread, and a chain of its queries alone never yields to socket reads).
      await Promise.all(keeping.map((c) => c.waitForEvents(i + 2, 30_000)));
    }

    const streams = await Promise.all(keeping.map((c) => c.waitForEvents(count + 1, 30_000)));
    for (const events of streams) {
      expect(events.slice(1).map((m) => Number(m.data.comment.split(' ')[0]))).toEqual(
        Array.from({ length: count }, (_, i) => i),
      );
    }
    await until(() => liveStats().droppedSlow === before.droppedSlow + 1);
    expect(liveStats().sockets).toBe(before.sockets - 1);
    stalled.resume(); // it reads what reached it, then finds the connection gone
    await stalledClosed;
    for (const client of keeping) expect(client.socket.readyState).toBe(client.socket.OPEN);
  });
});

describe('heartbeats', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await appWith({ heartbeatMs: 100 });
    base = await listenOnLoopback(t.app);
  });
  afterAll(async () => t.close());

  it('close a socket that stops answering pings and keep the ones that answer', async () => {
    const before = liveStats();
    const healthy = await connectStream(base);
    const silent = await connectStream(base, '', { autoPong: false });
    const gone = await silent.closed;
    expect(gone.code).toBe(1006); // terminated, no close handshake
    expect(liveStats().droppedDead).toBe(before.droppedDead + 1);
    await new Promise((r) => setTimeout(r, 400));
    expect(healthy.socket.readyState).toBe(healthy.socket.OPEN);
    const bodegaId = await publisher(t.services).bodega('Still Here Deli');
    const events = await healthy.waitForEvents(1);
    expect(events[0]).toMatchObject({ type: 'bodega.added', data: { id: bodegaId } });
    await healthy.close();
  });

  it('tell clients the server is going away when the app closes', async () => {
    const client = await connectStream(base);
    const closing = t.app.close();
    const { code } = await client.closed;
    await closing;
    expect(code).toBe(1001);
  });
});
