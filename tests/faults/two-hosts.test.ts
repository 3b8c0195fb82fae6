// Two api hosts and a worker host that share no directory: photos in one S3-compatible bucket
// (s3rver), public reads on a real streaming replica of a private Postgres primary, one private
// Redis. Each process has its own directory, as UPLOAD_DIR and as its temporary folder (TMPDIR), so
// nothing one host writes to its disk can be seen by another.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../server/config.ts';
import { createS3Client } from '../../server/photos/s3-storage.ts';
import { closeServices, createServices } from '../../server/services.ts';
import { reconcileSweeps } from '../../workers/jobs.ts';
import { createReconciler } from '../../workers/reconciler.ts';
import { jpegOfSize } from '../fixtures/images.ts';
import type { Json } from '../helpers/json.ts';
import { multipartForm } from '../helpers/multipart-form.ts';
import { S3RVER_CREDENTIALS, startS3Server, type S3ServerUnderTest } from '../helpers/s3-server.ts';
import {
  json,
  register,
  startAppProcess,
  startPostgres,
  startRedis,
  startReplica,
  waitFor,
  type AppProcess,
  type PostgresInstance,
  type RedisInstance,
  type ReplicaInstance,
} from './instances.ts';

const POSITION = 'x-log-position';
/** What an upload answers while the bucket cannot be reached (PhotoStorageUnavailable). */
const STORAGE_DOWN = {
  error: 'Photo storage cannot be reached right now, so nothing was saved. Please try again shortly.',
  code: 'unavailable',
};

/** One host: a process and the directory only it uses. */
type Host = { name: string; dir: string; process: AppProcess };

describe('two api hosts and a worker host sharing no directory', () => {
  let primary: PostgresInstance;
  let replica: ReplicaInstance;
  let redis: RedisInstance;
  let s3: S3ServerUnderTest;
  let bucket: S3Client;
  let db: pg.Pool;
  let a: Host;
  let b: Host;
  let worker: Host;
  let owner: { token: string; id: number };
  let env: Record<string, string>;

  const hostEnv = (dir: string) => ({ ...env, UPLOAD_DIR: path.join(dir, 'uploads'), TMPDIR: dir });
  const startHost = async (name: string, role: 'api' | 'worker'): Promise<Host> => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bodega-two-hosts-${name}-`));
    return { name, dir, process: await startAppProcess(role, hostEnv(dir)) };
  };
  const url = (host: Host, p: string) => `${host.process.baseUrl}${p}`;
  /** Upload files a host's S3 storage is receiving (or a killed process left) on its disk. */
  const stagedFiles = (host: Host) => filesIn(path.join(host.dir, 'bodega-cats-uploads'));

  beforeAll(async () => {
    [primary, redis, s3] = await Promise.all([startPostgres(), startRedis(), startS3Server()]);
    replica = await startReplica(primary);
    env = {
      DATABASE_URL: primary.url,
      DATABASE_REPLICA_URLS: replica.url,
      REDIS_URL: redis.url,
      ...s3.env,
      // An object no photo refers to is an orphan after 2 s here, not a day.
      ORPHAN_MIN_AGE_HOURS: String(2 / 3600),
    };
    bucket = createS3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
    });
    db = new pg.Pool({ connectionString: primary.url, max: 2 });
    // A first, alone: it migrates the empty database.
    a = await startHost('a', 'api');
    [b, worker] = await Promise.all([startHost('b', 'api'), startHost('worker', 'worker')]);
    owner = await register(a.process.baseUrl, 'twohosts');
  });
  afterAll(async () => {
    for (const host of [a, b, worker]) await host?.process.kill('SIGTERM');
    await db?.end();
    bucket?.destroy();
    await s3?.close();
    await replica?.destroy();
    await redis?.destroy();
    await primary?.destroy();
    for (const host of [a, b, worker]) if (host) fs.rmSync(host.dir, { recursive: true, force: true });
  });

  const authorized = (extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${owner.token}`,
    ...extra,
  });

  async function addCat(host: Host, name: string): Promise<{ id: number; position: string | null }> {
    const res = await fetch(url(host, '/api/cats'), {
      method: 'POST',
      headers: authorized({ 'content-type': 'application/json' }),
      body: JSON.stringify({
        name,
        bodega_name: `${name} Deli`,
        address: `${name.length} Host Rd`,
        latitude: 40.72,
        longitude: -73.98,
      }),
    });
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(201);
    return { id: body.cat.id, position: res.headers.get(POSITION) };
  }

  async function image(seed: number): Promise<Buffer> {
    return sharp({
      create: { width: 800, height: 600, channels: 3, background: { r: seed % 256, g: 90, b: 40 } },
    })
      .jpeg()
      .toBuffer();
  }

  async function upload(host: Host, catId: number, file: Buffer): Promise<Response> {
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(file)], { type: 'image/jpeg' }), 'cat.jpg');
    return fetch(url(host, `/api/photos/cats/${catId}/photos`), {
      method: 'POST',
      headers: authorized(),
      body: form,
    });
  }

  type PhotoRow = {
    id: number;
    status: string;
    filename: string;
    original_path: string;
    target_type: string;
    target_id: number;
  };
  const photoRows = async (): Promise<PhotoRow[]> =>
    (
      await db.query<PhotoRow>(
        'select id::int, status, filename, original_path, target_type, target_id::int from photos order by id',
      )
    ).rows;

  /** Every key in the bucket, staged uploads (incoming/) included. */
  async function bucketKeys(): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await bucket.send(
        new ListObjectsV2Command({ Bucket: s3.bucket, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) keys.push(object.Key!);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys.sort();
  }

  /** The keys the photos refer to: a ready photo's variants, a processing photo's original. */
  async function photoKeys(): Promise<string[]> {
    const keys: string[] = [];
    for (const p of await photoRows()) {
      const folder = p.target_type === 'cat' ? 'cats' : 'bodegas';
      if (p.status === 'ready')
        keys.push(`${folder}/${p.filename}_thumb.webp`, `${folder}/${p.filename}_large.webp`);
      else if (p.status === 'processing') keys.push(p.original_path);
    }
    return keys.sort();
  }

  const waitReady = (ids: number[], timeoutMs: number) =>
    waitFor(
      async () => {
        const rows = await photoRows();
        return ids.every((id) => rows.find((r) => r.id === id)?.status === 'ready');
      },
      timeoutMs,
      () => `photos ${ids.join(', ')} to be ready (worker: ${worker.process.output().slice(-1500)})`,
    );

  it('serves on host B a photo uploaded on host A once the worker has processed it; originals on neither', async () => {
    const cat = await addCat(a, 'Bucket Tabby');
    const res = await upload(a, cat.id, await image(1));
    const body = await json(res);
    expect(res.status, JSON.stringify(body)).toBe(201);
    const photoId: number = body.photo.id;
    const [row] = (await photoRows()).filter((r) => r.id === photoId);
    expect(row!.original_path).toMatch(/^originals\//);
    for (const host of [a, b])
      expect((await fetch(url(host, `/uploads/${row!.original_path}`))).status).toBe(404);

    await waitReady([photoId], 60_000);
    let photo: Json = null;
    await waitFor(
      async () => {
        const page = await json(await fetch(url(b, `/api/cats/${cat.id}`)));
        photo = page.cat?.photos?.find((p: Json) => p.id === photoId);
        return photo?.status === 'ready';
      },
      10_000,
      'the ready photo on host B',
    );
    for (const variant of [photo.url, photo.thumb_url] as string[]) {
      expect(variant).toMatch(/^\/uploads\/cats\/[0-9a-f]+_(large|thumb)\.webp$/);
      const served = await fetch(url(b, variant));
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      const bytes = Buffer.from(await served.arrayBuffer());
      expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
      expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
      expect((await sharp(bytes).metadata()).format).toBe('webp');
    }
    // Neither host has the photo on its disk: it is in the bucket alone.
    for (const host of [a, b, worker]) {
      expect(filesIn(path.join(host.dir, 'uploads'))).toEqual([]);
      expect(stagedFiles(host)).toEqual([]);
    }
    for (const host of [a, b])
      expect((await fetch(url(host, `/uploads/${row!.original_path}`))).status).toBe(404);
    expect(await bucketKeys()).not.toContain(row!.original_path);
  });

  it('shows a cat added on host A on a live socket of host B', async () => {
    const received: Json[] = [];
    const socket = new WebSocket(`${b.process.baseUrl.replace('http', 'ws')}/api/stream`);
    socket.on('message', (raw) => received.push(JSON.parse(String(raw))));
    try {
      await waitFor(async () => received.some((m) => m.type === 'hello'), 20_000, 'hello from host B');
      const cat = await addCat(a, 'Socket Siamese');
      await waitFor(
        async () => received.some((m) => m.type === 'cat.added' && m.data.id === cat.id),
        20_000,
        () => `cat.added on host B (received: ${JSON.stringify(received).slice(0, 500)})`,
      );
      expect(received.find((m) => m.type === 'cat.added' && m.data.id === cat.id).data).toMatchObject({
        name: 'Socket Siamese',
        bodega_name: 'Socket Siamese Deli',
      });
    } finally {
      socket.close();
    }
  });

  it('lets a writer on host A read their write on host B with its log position while the replica is behind', async () => {
    const cat = await addCat(a, 'Lagging Calico');
    const onReplica = new pg.Pool({ connectionString: replica.url, max: 1 });
    try {
      // The cat is on the replica before its replay stops: the review's read needs its page.
      await waitFor(
        async () => (await onReplica.query('select 1 from cats where id = $1', [cat.id])).rowCount === 1,
        10_000,
        'the cat on the replica',
      );
      await replica.pauseReplay();
      try {
        const posted = await fetch(url(a, '/api/reviews'), {
          method: 'POST',
          headers: authorized({ 'content-type': 'application/json' }),
          body: JSON.stringify({ cat_id: cat.id, rating: 5, comment: 'Read on the other host' }),
        });
        const review = (await json(posted)).review;
        expect(posted.status).toBe(201);
        const position = posted.headers.get(POSITION);
        expect(position).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);

        // The replica really is behind: it has not replayed the write, and has no review.
        const replayed = await onReplica.query<{ behind: boolean; reviews: number }>(
          `select pg_last_wal_replay_lsn() < $1::pg_lsn as behind,
                  (select count(*)::int from reviews where target_id = $2) as reviews`,
          [position, cat.id],
        );
        expect(replayed.rows[0]).toEqual({ behind: true, reviews: 0 });

        // Host B, given the position as the client sends it, answers with the review.
        const started = Date.now();
        const read = await fetch(url(b, `/api/reviews/cat/${cat.id}`), {
          headers: authorized({ [POSITION]: position! }),
        });
        const readMs = Date.now() - started;
        expect(read.status).toBe(200);
        const page = await json(read);
        expect(page.reviews.map((r: Json) => r.id)).toEqual([review.id]);
        expect(page.reviews[0]).toMatchObject({ rating: 5, comment: 'Read on the other host' });
        // It waited REPLICA_WAIT_MS (200 ms) at most for the replica before asking the primary.
        expect(readMs).toBeLessThan(5000);
        // A position that is not one is refused in the contract's shape, not ignored.
        const bad = await fetch(url(b, `/api/reviews/cat/${cat.id}`), {
          headers: { [POSITION]: 'yesterday' },
        });
        expect(bad.status).toBe(400);
        expect(await json(bad)).toMatchObject({ error: expect.stringMatching(/X-Log-Position/) });
      } finally {
        await replica.resumeReplay();
      }
      await waitFor(
        async () =>
          (await onReplica.query('select 1 from reviews where target_id = $1', [cat.id])).rowCount === 1,
        10_000,
        'the replica to replay the review once resumed',
      );
    } finally {
      await onReplica.end();
    }
  });

  /** Whether each api host sends public reads to the replica now (its /metrics). */
  async function inRotation(host: Host): Promise<boolean | null> {
    const metrics = await (await fetch(url(host, '/metrics'))).text();
    const value = /^db_replica_in_rotation\{[^}]*\} (\d)/m.exec(metrics)?.[1];
    return value === undefined ? null : value === '1';
  }

  it('keeps serving reads on both hosts from the primary while the replica is down, and reads from it again once it is back', async () => {
    const cat = await addCat(a, 'Steady Bengal');
    const posted = await fetch(url(a, '/api/reviews'), {
      method: 'POST',
      headers: authorized({ 'content-type': 'application/json' }),
      body: JSON.stringify({ cat_id: cat.id, rating: 4, comment: 'Still here' }),
    });
    expect(posted.status).toBe(201);
    for (const host of [a, b])
      await waitFor(
        async () => (await inRotation(host)) === true,
        15_000,
        `${host.name} reading on the replica`,
      );

    const readsRight = async () => {
      for (const host of [a, b]) {
        const reviews = await fetch(url(host, `/api/reviews/cat/${cat.id}`));
        expect(reviews.status).toBe(200);
        expect((await json(reviews)).reviews.map((r: Json) => r.comment)).toEqual(['Still here']);
        const page = await fetch(url(host, `/api/cats/${cat.id}`));
        expect(page.status).toBe(200);
        expect((await json(page)).cat).toMatchObject({ id: cat.id, name: 'Steady Bengal' });
      }
    };
    await replica.stop();
    try {
      // At once (the first statements find it dead and run on the primary) and once both hosts'
      // checks have taken it out of the rotation.
      await readsRight();
      for (const host of [a, b])
        await waitFor(
          async () => (await inRotation(host)) === false,
          15_000,
          `${host.name} to drop the replica`,
        );
      await readsRight();
    } finally {
      await replica.start();
    }
    for (const host of [a, b])
      await waitFor(
        async () => (await inRotation(host)) === true,
        20_000,
        `${host.name} to take the replica back`,
      );
    await readsRight();
    // Both hosts read on it again: with its replay paused, a review written since is missing from
    // what they answer a visitor, as it would not be from the primary.
    await replica.pauseReplay();
    try {
      const reader = await register(b.process.baseUrl, 'secondreader');
      const later = await fetch(url(b, '/api/reviews'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${reader.token}` },
        body: JSON.stringify({ cat_id: cat.id, rating: 3, comment: 'Written while replay waits' }),
      });
      expect(later.status).toBe(201);
      for (const host of [a, b]) {
        const reviews = await fetch(url(host, `/api/reviews/cat/${cat.id}`));
        expect((await json(reviews)).reviews.map((r: Json) => r.comment)).toEqual(['Still here']);
      }
    } finally {
      await replica.resumeReplay();
    }
  });

  /** One pass of the worker's reconciler, as a worker host runs it, over the same services. */
  async function sweepOrphans(): Promise<void> {
    // The SDK reads its credentials from the environment, as the worker's does.
    process.env.AWS_ACCESS_KEY_ID = s3.env.AWS_ACCESS_KEY_ID;
    process.env.AWS_SECRET_ACCESS_KEY = s3.env.AWS_SECRET_ACCESS_KEY;
    const services = await createServices(loadConfig({ ...process.env, ...hostEnv(worker.dir) }), {
      migrate: false,
    });
    try {
      await createReconciler(services, {}, reconcileSweeps(services)).run();
    } finally {
      await closeServices(services);
    }
  }

  /** Objects as a crash or a lost photo would leave them, none referred to by a photo. */
  async function plantOrphans(): Promise<string[]> {
    const name = () => randomBytes(16).toString('hex');
    const keys = [`originals/${name()}.jpg`, `cats/${name()}_large.webp`, `incoming/${name()}`];
    for (const key of keys)
      await bucket.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: await image(7) }));
    return keys;
  }

  it('refuses uploads with a 503 while the bucket is down for 30 s, then makes every photo accepted before ready and leaves no orphan', async () => {
    const cat = await addCat(a, 'Outage Ocicat');
    // The worker is stopped while photos are accepted, so their jobs all meet the outage.
    await worker.process.kill('SIGTERM');
    const accepted: number[] = [];
    for (const [i, host] of [a, b, a].entries()) {
      const res = await upload(host, cat.id, await image(20 + i));
      expect(res.status).toBe(201);
      accepted.push((await json(res)).photo.id);
    }
    const orphans = await plantOrphans();

    await s3.stop();
    const downAt = Date.now();
    try {
      worker = { ...worker, process: await startAppProcess('worker', hostEnv(worker.dir)) };
      for (const host of [a, b]) {
        const res = await upload(host, cat.id, await image(30));
        expect(res.status).toBe(503);
        expect(await json(res)).toEqual(STORAGE_DOWN);
        expect(stagedFiles(host)).toEqual([]);
      }
      // The jobs meet the outage and wait to try again (a transient failure, no attempt used up).
      await waitFor(
        async () => worker.process.output().includes(STORAGE_DOWN.error),
        20_000,
        () => `the photos job to meet the outage (worker: ${worker.process.output().slice(-1500)})`,
      );
      const during = await photoRows();
      expect(accepted.map((id) => during.find((r) => r.id === id)?.status)).toEqual(
        accepted.map(() => 'processing'),
      );
      // The outage lasts its 30 s.
      await new Promise((r) => setTimeout(r, Math.max(0, downAt + 30_000 - Date.now())));
    } finally {
      await s3.start();
    }

    // Jobs back off up to 30 s between tries while a dependency is down, so one may wait that long.
    await waitReady(accepted, 75_000);
    // Nothing lost, and nothing recorded of the uploads refused.
    const ofCat = (await photoRows()).filter((r) => r.target_type === 'cat' && r.target_id === cat.id);
    expect(ofCat.map((r) => r.id)).toEqual(accepted);
    const page = await json(await fetch(url(b, `/api/cats/${cat.id}`)));
    expect(page.cat.photos.map((p: Json) => p.id).sort()).toEqual([...accepted].sort());

    expect(await bucketKeys()).toEqual(expect.arrayContaining(orphans));
    await sweepOrphans();
    const left = await bucketKeys();
    expect(left).toEqual(await photoKeys());
    for (const key of orphans) expect(left).not.toContain(key);
  });

  it('leaves no orphan object in the bucket and no staged file on its disk after host A is killed mid-upload', async () => {
    const cat = await addCat(b, 'Killed Korat');
    const form = multipartForm([
      { name: 'photo', data: await jpegOfSize(4_500_000), filename: 'big.jpg', contentType: 'image/jpeg' },
    ]);
    const socket = net.connect(a.process.port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      `POST /api/photos/cats/${cat.id}/photos HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Authorization: Bearer ${owner.token}\r\nContent-Type: ${form.headers['content-type']}\r\n` +
        `Content-Length: ${form.payload.length}\r\n\r\n`,
    );
    // A slow body: 64 KB every 50 ms (about 1.3 MB/s), well above the upload's minimum pace.
    let sending = true;
    const sent = (async () => {
      for (let at = 0; sending && at < form.payload.length; at += 65_536) {
        socket.write(form.payload.subarray(at, at + 65_536));
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    try {
      // A is receiving it: part of the photo is in A's temporary folder.
      await waitFor(
        async () => {
          const [file] = stagedFiles(a);
          return (
            file !== undefined && fs.statSync(path.join(a.dir, 'bodega-cats-uploads', file)).size > 500_000
          );
        },
        20_000,
        'the upload to be part received on host A',
      );
      await a.process.kill('SIGKILL');
    } finally {
      sending = false;
      await sent;
      socket.destroy();
    }
    const leftByTheKill = stagedFiles(a);
    expect(leftByTheKill).toHaveLength(1);

    // Restarted on the same host, A clears what the killed process left on its disk.
    a = { ...a, process: await startAppProcess('api', hostEnv(a.dir)) };
    await waitFor(
      async () => stagedFiles(a).length === 0,
      10_000,
      () => `A's disk cleared: ${stagedFiles(a).join()}`,
    );
    await sweepOrphans();
    expect(await bucketKeys()).toEqual(await photoKeys());
    expect((await photoRows()).filter((r) => r.target_type === 'cat' && r.target_id === cat.id)).toEqual([]);
    const page = await json(await fetch(url(a, `/api/cats/${cat.id}`)));
    expect(page.cat.photos).toEqual([]);
  });
});

/** Files under `dir`, relative, recursively (none when it does not exist). */
function filesIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}
