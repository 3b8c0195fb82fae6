import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import WebSocket from 'ws';
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

// The production topology with local services: two api processes and one worker process sharing
// one Postgres, one Redis and one upload directory.
describe('two api processes and a worker', () => {
  let pg: PostgresInstance;
  let redis: RedisInstance;
  let apiA: AppProcess;
  let apiB: AppProcess;
  let worker: AppProcess;
  let uploadDir: string;

  beforeAll(async () => {
    pg = await startPostgres();
    redis = await startRedis();
    uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-topology-'));
    const env = { DATABASE_URL: pg.url, REDIS_URL: redis.url, UPLOAD_DIR: uploadDir };
    apiA = await startAppProcess('api', env);
    apiB = await startAppProcess('api', env);
    worker = await startAppProcess('worker', env);
  });
  afterAll(async () => {
    for (const p of [apiA, apiB, worker]) await p?.kill('SIGTERM');
    await redis?.destroy();
    await pg?.destroy();
    fs.rmSync(uploadDir, { recursive: true, force: true });
  });

  it('shows a write through one api live on the other, completes photo jobs, and reports it in /metrics', async () => {
    const received: Json[] = [];
    const socket = new WebSocket(`${apiB.baseUrl.replace('http', 'ws')}/api/stream`);
    socket.on('message', (raw) => received.push(JSON.parse(String(raw))));
    await waitFor(async () => received.some((m) => m.type === 'hello'), 20_000, 'hello from api B');

    const { token } = await register(apiA.baseUrl, 'topologist');
    const created = await fetch(`${apiA.baseUrl}/api/cats`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name: 'Scaled Siamese',
        bodega_name: 'Replica Deli',
        address: '2 Replica Rd',
        latitude: 40.73,
        longitude: -73.99,
      }),
    });
    expect(created.status).toBe(201);
    const catId = (await json(created)).cat.id;
    await waitFor(
      async () => received.some((m) => m.type === 'cat.added' && m.data.id === catId),
      20_000,
      'cat.added on api B',
    );
    const added = received.find((m) => m.type === 'cat.added' && m.data.id === catId);
    expect(added.data).toMatchObject({
      name: 'Scaled Siamese',
      bodega_name: 'Replica Deli',
      latitude: 40.73,
      longitude: -73.99,
    });

    const image = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#c08040' } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'cat.jpg');
    const uploaded = await fetch(`${apiB.baseUrl}/api/photos/cats/${catId}/photos`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const photoId = (await json(uploaded)).photo.id;
    await waitFor(
      async () =>
        received.some((m) => m.type === 'photo.ready' && (m.data.id ?? m.data.photo_id) === photoId),
      60_000,
      'photo.ready',
    );
    const detail = await json(await fetch(`${apiA.baseUrl}/api/cats/${catId}`));
    const photo = detail.cat.photos.find((p: { id: number }) => p.id === photoId);
    expect(photo.status).toBe('ready');
    expect((await fetch(`${apiA.baseUrl}${photo.thumb_url}`)).status).toBe(200);
    expect((await fetch(`${apiB.baseUrl}${photo.url}`)).status).toBe(200);
    socket.close();

    const metrics = await (await fetch(`${apiA.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/http_requests_total\{[^}]*route="\/api\/cats"[^}]*status="201"/);
    expect(Number(/^events_total\{[^}]*\} (\d+)/m.exec(metrics)?.[1])).toBeGreaterThan(0);
    expect(metrics).toMatch(/queue_jobs\{[^}]*queue="photos"[^}]*state="completed"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/consumer_lag_events\{[^}]*subscription="job-dispatcher"[^}]*\} 0/);
  });
});
