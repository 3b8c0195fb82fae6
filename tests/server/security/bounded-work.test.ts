// Every route answers within a bounded time (API.md, Robustness of every route): statements have a
// server-side timeout (503 `timeout`), a client cannot trickle a request forever, and one address
// cannot hold an unbounded number of live-stream sockets.
import net from 'node:net';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.ts';
import { loadConfig } from '../../../server/config.ts';
import { closeServices, createServices } from '../../../server/services.ts';
import { createTestApp, testConfig, type TestApp } from '../../helpers/app.ts';
import { storageMode } from '../../helpers/storage.ts';
import { connectStream, listenOnLoopback, type StreamClient } from '../live/stream-client.ts';

describe('bounded work', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
  });
  const appWith = async (config: Parameters<typeof testConfig>[0]) => {
    const t = await createTestApp({ worker: false, config });
    apps.push(t);
    return t;
  };

  it('reads the new settings with their defaults', () => {
    const defaults = loadConfig({ NODE_ENV: 'test' });
    expect(defaults.statementTimeoutMs).toBe(15_000);
    expect(defaults.requestTimeoutMs).toBe(30_000);
    expect(defaults.live.maxConnectionsPerAddress).toBe(20);
    const set = loadConfig({
      NODE_ENV: 'test',
      STATEMENT_TIMEOUT_MS: '2000',
      REQUEST_TIMEOUT_MS: '0',
      LIVE_MAX_CONNECTIONS_PER_ADDRESS: '3',
    });
    expect([set.statementTimeoutMs, set.requestTimeoutMs, set.live.maxConnectionsPerAddress]).toEqual([
      2000, 0, 3,
    ]);
    expect(() => loadConfig({ NODE_ENV: 'test', STATEMENT_TIMEOUT_MS: 'soon' })).toThrow(
      /STATEMENT_TIMEOUT_MS must be a positive whole number/,
    );
  });

  it.skipIf(storageMode() !== 'postgres')(
    'cancels a statement that runs past STATEMENT_TIMEOUT_MS and answers 503 timeout',
    async () => {
      const owner = await appWith({});
      // The app's own services, opened from its configuration as `npm start` does (migrations too).
      const config = testConfig({ databaseUrl: owner.databaseUrl, statementTimeoutMs: 300 });
      const services = await createServices(config);
      const app = await buildApp(services, { serveClient: false });
      const blocker = new pg.Client({ connectionString: owner.databaseUrl! });
      await blocker.connect();
      try {
        // Another session holds the cats table: the list waits on the lock until its timeout.
        await blocker.query('begin');
        await blocker.query('lock table cats in access exclusive mode');
        const release = setTimeout(() => void blocker.query('rollback').catch(() => {}), 8000);
        const started = Date.now();
        const res = await app.inject({ method: 'GET', url: '/api/search/cats' });
        clearTimeout(release);
        expect(res.statusCode).toBe(503);
        expect(res.json()).toEqual({ error: expect.any(String), code: 'timeout' });
        expect(Date.now() - started).toBeLessThan(7000);
        await blocker.query('rollback');
        expect((await app.inject({ method: 'GET', url: '/api/search/cats' })).statusCode).toBe(200);
      } finally {
        await blocker.end();
        await app.close();
        await closeServices(services);
      }
    },
  );

  it('closes a connection whose request is trickled in slower than REQUEST_TIMEOUT_MS', async () => {
    const t = await appWith({ requestTimeoutMs: 600 });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const started = Date.now();
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const closed = new Promise<number>((resolve) =>
      socket.once('close', () => resolve(Date.now() - started)),
    );
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{',
    );
    // A byte every 200 ms: never idle long, never done.
    const drip = setInterval(() => socket.write(' '), 200);
    const gaveUp = new Promise<number>((resolve) => setTimeout(() => resolve(-1), 6000));
    const elapsed = await Promise.race([closed, gaveUp]);
    clearInterval(drip);
    socket.destroy();
    expect(elapsed, 'the server kept the slow request open').toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(3000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('lets a live-stream socket outlive REQUEST_TIMEOUT_MS (it bounds receiving a request, not a session)', async () => {
    const t = await appWith({ requestTimeoutMs: 300 });
    const base = await listenOnLoopback(t.app);
    const client = await connectStream(base);
    try {
      await client.waitFor((m) => m.some((x) => x.type === 'hello'));
      const closed = await Promise.race([
        client.closed.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), 1500)),
      ]);
      expect(closed).toBe(false);
      expect(client.socket.readyState).toBe(client.socket.OPEN);
    } finally {
      await client.close();
    }
  });

  it('refuses a live-stream socket beyond LIVE_MAX_CONNECTIONS_PER_ADDRESS from one address', async () => {
    const t = await appWith({ live: { ...testConfig().live, maxConnectionsPerAddress: 3 } });
    const base = await listenOnLoopback(t.app);
    const clients: StreamClient[] = [];
    try {
      for (let i = 0; i < 3; i++) clients.push(await connectStream(base));
      const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const socket = new WebSocket(`${base}/api/stream`);
        socket.once('open', () => reject(new Error('a fourth socket was accepted')));
        socket.once('unexpected-response', (_req, res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
      });
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'rate_limited' });
      // The others still work, and closing one makes room again.
      await clients[0]!.waitFor((m) => m.some((x) => x.type === 'hello'));
      await clients.shift()!.close();
      const deadline = Date.now() + 5000;
      for (;;) {
        try {
          clients.push(await connectStream(base));
          break;
        } catch (error) {
          // The server may see the close a moment after the client does.
          if (Date.now() > deadline) throw error;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      await clients[2]!.waitFor((m) => m.some((x) => x.type === 'hello'));
    } finally {
      for (const c of clients) await c.close();
    }
  });
});
