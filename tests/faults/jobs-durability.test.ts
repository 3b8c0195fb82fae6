// Jobs are never lost and never given up on while their trouble is only around them: an embedded
// app killed right after an upload and a review finishes both after its restart, and jobs in flight
// when Postgres goes away for longer than the attempt budget all complete once it is back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import type { Json } from '../helpers/json.ts';

/** A photo big enough that resizing it takes a moment, so the job is still running when we strike. */
async function busyPhoto(seed: number): Promise<Buffer> {
  const size = 2400;
  const raw = Buffer.alloc(size * size * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 31 + seed * 7919) % 251;
  return sharp(raw, { raw: { width: size, height: size, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

async function post(base: string, token: string, route: string, body: object): Promise<Json> {
  const res = await fetch(`${base}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const parsed = await json(res);
  if (res.status !== 201) throw new Error(`${route}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

async function upload(base: string, token: string, catId: number, photo: Buffer): Promise<number> {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'cat.jpg');
  const res = await fetch(`${base}/api/photos/cats/${catId}/photos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const body = await json(res);
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
  return body.photo.id;
}

async function catState(
  base: string,
  catId: number,
): Promise<{ rating: number; review_count: number; photos: string[] }> {
  const cat = (await json(await fetch(`${base}/api/cats/${catId}`))).cat;
  return {
    rating: cat.rating,
    review_count: cat.review_count,
    photos: cat.photos.map((p: { status: string }) => p.status),
  };
}

/**
 * The cat's state once its one review is counted and no photo is still processing (or at 180 s:
 * after an outage a job's next try can be up to 30 s away, and four busy photos take a while on a
 * loaded machine).
 */
async function settledState(base: string, catId: number, what: string, logs: () => string = () => '') {
  let last: unknown = null;
  try {
    await waitFor(
      async () => {
        const state = await catState(base, catId);
        last = state;
        return state.review_count === 1 && state.photos.every((s) => s === 'ready');
      },
      180_000,
      what,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}; the cat was last ${JSON.stringify(last)}${logs()}`, {
      cause: error,
    });
  }
  return catState(base, catId);
}

describe('an embedded app killed with SIGKILL right after an upload and a review', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-embedded-kill-'));
  const env = {
    DATABASE_URL: '',
    REDIS_URL: '',
    DATA_DIR: path.join(dir, 'data'),
    UPLOAD_DIR: path.join(dir, 'uploads'),
  };
  let app: AppProcess | null = null;
  afterAll(async () => {
    await app?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finishes the photo and the rating after the restart', async () => {
    app = await startAppProcess('all', env);
    const { token } = await register(app.baseUrl, 'killtester');
    const cat = (
      await post(app.baseUrl, token, '/api/cats', {
        name: 'Kill Cat',
        bodega_name: 'Kill Deli',
        address: '1 Kill St',
      })
    ).cat.id as number;
    const photos = [await busyPhoto(1), await busyPhoto(2), await busyPhoto(3)];
    for (const photo of photos) await upload(app.baseUrl, token, cat, photo);
    await post(app.baseUrl, token, '/api/reviews', { cat_id: cat, rating: 4 });
    await app.kill('SIGKILL');

    app = await startAppProcess('all', env);
    const base = app.baseUrl;
    expect(await settledState(base, cat, 'the jobs to finish after the restart')).toEqual({
      rating: 4,
      review_count: 1,
      photos: ['ready', 'ready', 'ready'],
    });
  });
});

describe('Postgres away for longer than the attempt budget while jobs are in flight', () => {
  let pg: PostgresInstance;
  let redis: RedisInstance;
  let api: AppProcess;
  let worker: AppProcess;
  beforeAll(async () => {
    pg = await startPostgres();
    redis = await startRedis();
    api = await startAppProcess('api', { DATABASE_URL: pg.url, REDIS_URL: redis.url });
    worker = await startAppProcess('worker', { DATABASE_URL: pg.url, REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await worker?.kill();
    await api?.kill();
    await redis?.destroy();
    await pg?.destroy();
  });

  it('completes every job once it is back', async () => {
    const { token } = await register(api.baseUrl, 'pgjobs');
    const cat = (
      await post(api.baseUrl, token, '/api/cats', {
        name: 'Patient Cat',
        bodega_name: 'Patient Deli',
        address: '2 Wait St',
      })
    ).cat.id as number;
    const photos = [await busyPhoto(4), await busyPhoto(5), await busyPhoto(6), await busyPhoto(7)];
    for (const photo of photos) await upload(api.baseUrl, token, cat, photo);
    await post(api.baseUrl, token, '/api/reviews', { cat_id: cat, rating: 5 });

    await pg.stop('fast');
    // Longer than the 5 attempts' backoff (0.5 + 1 + 2 + 4 s) that used to fail jobs for good.
    await new Promise((r) => setTimeout(r, 12_000));
    await pg.start();

    const logs = () => `\napi: ${api.output().slice(-3000)}\nworker: ${worker.output().slice(-3000)}`;
    expect(await settledState(api.baseUrl, cat, 'every job to complete', logs)).toEqual({
      rating: 5,
      review_count: 1,
      photos: ['ready', 'ready', 'ready', 'ready'],
    });
  });
});

describe('a worker started while Postgres is down', () => {
  let pg: PostgresInstance;
  let redis: RedisInstance;
  let api: AppProcess;
  let worker: AppProcess | undefined;
  beforeAll(async () => {
    pg = await startPostgres();
    redis = await startRedis();
    api = await startAppProcess('api', { DATABASE_URL: pg.url, REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await worker?.kill();
    await api?.kill();
    await redis?.destroy();
    await pg?.destroy();
  });

  it('waits for the database instead of exiting, then does the work', async () => {
    const { token } = await register(api.baseUrl, 'pglate');
    const cat = (
      await post(api.baseUrl, token, '/api/cats', {
        name: 'Late Cat',
        bodega_name: 'Late Deli',
        address: '3 Wait St',
      })
    ).cat.id as number;
    await upload(api.baseUrl, token, cat, await busyPhoto(8));
    await post(api.baseUrl, token, '/api/reviews', { cat_id: cat, rating: 4 });

    await pg.stop('fast');
    const late = await startAppProcess('worker', { DATABASE_URL: pg.url, REDIS_URL: redis.url });
    worker = late;
    await waitFor(
      async () => late.output().includes('the database cannot be reached'),
      60_000,
      'the worker to wait',
    );
    expect(late.child.exitCode).toBeNull();
    await pg.start();

    const logs = () => `\nworker: ${late.output().slice(-3000)}`;
    const state = await settledState(api.baseUrl, cat, 'the late worker to do the work', logs);
    expect(state).toEqual({ rating: 4, review_count: 1, photos: ['ready'] });
  });
});
