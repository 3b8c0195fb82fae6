// A Redis that still accepts connections but never answers (a hung server, a dropped route): the
// api keeps taking writes and serving reads, the live stream keeps delivering, readiness says what
// is wrong without hanging, and jobs finish once Redis answers again.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  freePort,
  json,
  register,
  startAppProcess,
  startPostgres,
  startRedis,
  waitFor,
  type AppProcess,
  type PostgresInstance,
  type RedisInstance,
} from './instances.ts';

/** A TCP relay to Redis that can swallow everything (both ways) and later heal with a reset. */
async function blackholeProxy(upstreamPort: number) {
  const port = await freePort();
  let swallowing = false;
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const server = net.createServer((client) => {
    client.on('error', () => {});
    if (swallowing) {
      client.on('data', () => {}); // accepted, never answered
      pairs.add({ client, upstream: client });
      return;
    }
    const upstream = net.connect(upstreamPort, '127.0.0.1');
    upstream.on('error', () => client.destroy());
    const pair = { client, upstream };
    pairs.add(pair);
    client.on('data', (d) => {
      if (!swallowing) upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (!swallowing) client.write(d);
    });
    client.on('close', () => (upstream.destroy(), pairs.delete(pair)));
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const reset = () => {
    for (const { client, upstream } of pairs) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    swallow() {
      swallowing = true;
    },
    /** Answers again; connections that lost bytes are reset, as a network would after a cut. */
    heal() {
      swallowing = false;
      reset();
    },
    close: () => new Promise<void>((resolve) => (reset(), server.close(() => resolve()))),
  };
}

async function timed<T>(what: string, run: () => Promise<T>, withinMs: number): Promise<T> {
  const started = Date.now();
  const result = await run();
  expect(Date.now() - started, what).toBeLessThan(withinMs);
  return result;
}

describe('Redis black-holed: accepts connections, never answers', () => {
  let pg: PostgresInstance;
  let redis: RedisInstance;
  let proxy: Awaited<ReturnType<typeof blackholeProxy>>;
  let api: AppProcess;
  let worker: AppProcess;
  beforeAll(async () => {
    pg = await startPostgres();
    redis = await startRedis();
    proxy = await blackholeProxy(redis.port);
    const env = { DATABASE_URL: pg.url, REDIS_URL: proxy.url, WRITE_RATE_LIMIT: '100' };
    api = await startAppProcess('api', env);
    worker = await startAppProcess('worker', env);
  });
  afterAll(async () => {
    await worker?.kill();
    await api?.kill();
    await proxy?.close();
    await redis?.destroy();
    await pg?.destroy();
  });

  it('keeps the api and the live stream working, and finishes the jobs once Redis answers again', async () => {
    const { token } = await register(api.baseUrl, 'blackhole');
    const post = (path: string, body: object) =>
      fetch(`${api.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
    // Warm: the write limiter and the queue have their connections open when the hole opens.
    expect(
      (await post('/api/cats', { name: 'Before Cat', bodega_name: 'Hole Deli', address: '1 Hole St' }))
        .status,
    ).toBe(201);

    const seen: string[] = [];
    const socket = new WebSocket(`${api.baseUrl.replace('http', 'ws')}/api/stream`);
    socket.on('message', (raw) => {
      const msg = JSON.parse(String(raw));
      if (msg.type === 'cat.added') seen.push(msg.data.name);
    });
    await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));

    proxy.swallow();
    const created = await timed(
      'a write while Redis hangs',
      () => post('/api/cats', { name: 'Hole Cat', bodega_name: 'Hole Deli', address: '1 Hole St' }),
      10_000,
    );
    expect(created.status).toBe(201);
    const cat = (await json(created)).cat.id as number;
    expect((await post('/api/reviews', { cat_id: cat, rating: 3 })).status).toBe(201);
    const read = await timed(
      'a read while Redis hangs',
      () => fetch(`${api.baseUrl}/api/cats/${cat}`),
      5_000,
    );
    expect(read.status).toBe(200);
    const ready = await timed('readiness while Redis hangs', () => fetch(`${api.baseUrl}/api/ready`), 5_000);
    expect(ready.status).toBe(503);
    await waitFor(async () => seen.includes('Hole Cat'), 10_000, 'the live stream to deliver the new cat');
    expect(seen).toContain('Hole Cat');

    proxy.heal();
    await waitFor(
      async () => (await json(await fetch(`${api.baseUrl}/api/cats/${cat}`))).cat.review_count === 1,
      60_000,
      'the rating job to run once Redis answers',
    );
    expect((await json(await fetch(`${api.baseUrl}/api/cats/${cat}`))).cat.rating).toBe(3);
    expect((await fetch(`${api.baseUrl}/api/ready`)).status).toBe(200);
    socket.close();
  });
});
