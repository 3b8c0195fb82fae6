// With Redis briefly gone, reviews are still taken and their ratings jobs wait in the log; once
// Redis is back the dispatcher hands them over and the rating arrives. Runs its own redis-server
// so that stopping it disturbs nobody else.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullQueue } from '../../server/queue/bullmq.ts';
import { consumerLag } from '../../server/events/consumer.ts';
import { DISPATCHER } from '../../server/queue/dispatcher.ts';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { givenCat, givenPerson, ratingEvents, ratingOf } from '../server/reviews/fixtures.ts';

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

async function startRedis(port: number, dir: string): Promise<ChildProcess> {
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    redis.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    redis.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
  });
  return redis;
}

async function stopRedis(redis: ChildProcess): Promise<void> {
  if (redis.exitCode !== null || redis.signalCode !== null) return;
  redis.kill('SIGTERM');
  await once(redis, 'exit');
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!hasRedis)('ratings while Redis is briefly unavailable', () => {
  let dir: string;
  let port: number;
  let redis: ChildProcess;
  let t: TestApp;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-redis-'));
    port = await freePort();
    redis = await startRedis(port, dir);
    const queue = createBullQueue({ url: `redis://127.0.0.1:${port}`, prefix: 'outage', onError: () => {} });
    t = await createTestApp({ queue });
  });
  afterAll(async () => {
    await t?.close();
    if (redis) await stopRedis(redis);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('dispatches the waiting ratings job once Redis is back', async () => {
    const cat = await givenCat(t);
    const ann = await givenPerson(t, 'ann');
    const ben = await givenPerson(t, 'ben');
    expect((await call(t.app, 'POST', '/api/reviews', { cat_id: cat, rating: 5 }, ann.token)).status).toBe(
      201,
    );
    await t.settle();
    expect(await ratingOf(t, 'cat', cat)).toEqual({ rating: 5, review_count: 1 });

    await stopRedis(redis);
    const res = await call(t.app, 'POST', '/api/reviews', { cat_id: cat, rating: 3 }, ben.token);
    expect(res.status).toBe(201);
    // Several dispatcher rounds (it polls every 200 ms) fail against the missing Redis meanwhile.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await ratingOf(t, 'cat', cat)).toEqual({ rating: 5, review_count: 1 });
    expect(await ratingEvents(t, 'cat', cat)).toHaveLength(1);
    expect((await consumerLag(t.services.database.db, DISPATCHER)).events).toBeGreaterThanOrEqual(1);

    redis = await startRedis(port, dir);
    const rating = await eventually(
      () => ratingOf(t, 'cat', cat),
      (r) => r.review_count === 2,
    );
    expect(rating).toEqual({ rating: 4, review_count: 2 });
    await t.settle();
    expect((await ratingEvents(t, 'cat', cat)).map((e) => e.data)).toEqual([
      { target_type: 'cat', target_id: cat, rating: 5, review_count: 1 },
      { target_type: 'cat', target_id: cat, rating: 4, review_count: 2 },
    ]);
  });
});
