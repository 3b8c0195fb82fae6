import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import sharp from 'sharp';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../server/db/database.ts';
import {
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
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

async function jpeg(width: number, height: number, seed: number): Promise<Buffer> {
  const channels = 3;
  const raw = Buffer.alloc(width * height * channels);
  let x = seed;
  for (let i = 0; i < raw.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    raw[i] = x & 0xff;
  }
  return sharp(raw, { raw: { width, height, channels } }).jpeg({ quality: 85 }).toBuffer();
}

async function upload(baseUrl: string, token: string, catId: number, image: Buffer) {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'cat.jpg');
  form.append('caption', 'fault test');
  return fetch(`${baseUrl}/api/photos/cats/${catId}/photos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

async function review(baseUrl: string, token: string, catId: number, rating: number) {
  return fetch(`${baseUrl}/api/reviews`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ cat_id: catId, rating, comment: 'seen during an outage' }),
  });
}

async function createCat(baseUrl: string, token: string, name: string): Promise<number> {
  const res = await fetch(`${baseUrl}/api/cats`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      name,
      bodega_name: 'Queue Deli',
      address: '5 Queue St',
      latitude: 40.71,
      longitude: -74.0,
    }),
  });
  expect(res.status).toBe(201);
  return (await json(res)).cat.id;
}

async function processedPerPhoto(database: Database): Promise<Map<number, number>> {
  const { rows } = await sql<{ photo_id: number; n: number }>`
    select (data->>'photo_id')::int as photo_id, count(*)::int as n from events where type = 'PhotoProcessed' group by 1`.execute(
    database.db,
  );
  return new Map(rows.map((r) => [r.photo_id, r.n]));
}

describe('queue faults (separate api and worker processes on private Postgres and Redis)', () => {
  let pg: PostgresInstance;
  let redis: RedisInstance;
  let api: AppProcess;
  let worker: AppProcess;
  let database: Database;
  let uploadDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    pg = await startPostgres();
    redis = await startRedis();
    uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-fault-uploads-'));
    env = { DATABASE_URL: pg.url, REDIS_URL: redis.url, UPLOAD_DIR: uploadDir };
    api = await startAppProcess('api', env);
    worker = await startAppProcess('worker', env);
    database = await openDatabase({ url: pg.url, poolSize: 2 });
  });
  afterAll(async () => {
    await database?.close();
    await api?.kill();
    await worker?.kill();
    await redis?.destroy();
    await pg?.destroy();
    fs.rmSync(uploadDir, { recursive: true, force: true });
  });

  it('accepts uploads and reviews while Redis is down and finishes every job once it is back', async () => {
    const owner = await register(api.baseUrl, 'redisowner');
    const catId = await createCat(api.baseUrl, owner.token, 'Outage Tabby');
    const reviewers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => register(api.baseUrl, `reviewer${i}`)),
    );
    const ratings = [5, 4, 3, 5, 2, 4];
    const photoIds: number[] = [];

    for (let i = 0; i < 2; i++) {
      const res = await upload(api.baseUrl, owner.token, catId, await jpeg(800, 600, i + 1));
      expect(res.status).toBe(201);
      photoIds.push((await json(res)).photo.id);
      expect((await review(api.baseUrl, reviewers[i]!.token, catId, ratings[i]!)).status).toBe(201);
    }

    await redis.stop();
    for (let i = 2; i < 6; i++) {
      const res = await upload(api.baseUrl, owner.token, catId, await jpeg(800, 600, i + 1));
      expect(res.status).toBe(201);
      photoIds.push((await json(res)).photo.id);
      expect((await review(api.baseUrl, reviewers[i]!.token, catId, ratings[i]!)).status).toBe(201);
    }
    await new Promise((r) => setTimeout(r, 2000));
    await redis.start();

    const expectedRating = Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 100) / 100;
    let seen = 'nothing yet';
    await waitFor(
      async () => {
        const cat = await json(await fetch(`${api.baseUrl}/api/cats/${catId}`));
        const statuses = cat.cat.photos.map((p: { id: number; status: string }) => `${p.id}:${p.status}`);
        seen = `photos ${statuses.join(' ')}, ${cat.cat.review_count} reviews, rating ${cat.cat.rating}`;
        const ready = cat.cat.photos.filter((p: { status: string }) => p.status === 'ready').length;
        return (
          ready === photoIds.length &&
          cat.cat.review_count === ratings.length &&
          Math.abs(cat.cat.rating - expectedRating) < 0.005
        );
      },
      90_000,
      // When it times out, say how far it got and what the processes said, so a rare failure can
      // be told apart from a slow machine.
      () =>
        `every photo to be ready and the rating to be right (last seen: ${seen}; ` +
        `api said: ${api.output().slice(-3000)}; worker said: ${worker.output().slice(-3000)})`,
    );
    const processed = await processedPerPhoto(database);
    for (const id of photoIds) expect(processed.get(id)).toBe(1);
  });

  it('retries a photo job whose worker was killed mid-way and records it processed exactly once', async () => {
    const owner = await register(api.baseUrl, 'killowner');
    const catId = await createCat(api.baseUrl, owner.token, 'Kill Calico');
    const queue = new Queue('photos', {
      connection: { host: '127.0.0.1', port: redis.port },
      prefix: 'bodega',
    });
    try {
      // A 12-megapixel photo (about 2.7 MB), so the job runs long enough to be killed mid-way.
      const big = await sharp({
        create: {
          width: 4000,
          height: 3000,
          channels: 3,
          background: '#808080',
          noise: { type: 'gaussian', mean: 128, sigma: 15 },
        },
      })
        .jpeg({ quality: 80 })
        .toBuffer();
      const res = await upload(api.baseUrl, owner.token, catId, big);
      expect(res.status).toBe(201);
      const photoId = (await json(res)).photo.id;
      await waitFor(async () => (await queue.getActiveCount()) > 0, 60_000, 'the photo job to start');
      await worker.kill('SIGKILL');
      expect((await processedPerPhoto(database)).get(photoId)).toBeUndefined();

      worker = await startAppProcess('worker', env);
      await waitFor(
        async () => {
          const cat = await json(await fetch(`${api.baseUrl}/api/cats/${catId}`));
          return cat.cat.photos.some(
            (p: { id: number; status: string }) => p.id === photoId && p.status === 'ready',
          );
        },
        120_000,
        'the stalled photo job to be retried',
      );
      expect((await processedPerPhoto(database)).get(photoId)).toBe(1);
    } finally {
      await queue.close();
    }
  });
});
