// Photo processing in embedded mode (PGlite, in-process queue, api and worker in one process).
// 1. A noisy 12-megapixel JPEG through the real photos job (read original, orient, two WebP
//    variants written atomically, PhotoProcessed appended) against a bare sharp resize of the
//    same file to the same two sizes, interleaved, median of several repetitions.
// 2. The api's p95 on a light read load, idle and while 20 such photos are processed.
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { buildApp } from '../../server/app.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { VARIANT_SIZES } from '../../server/photos/urls.ts';
import { createPhotosProcessor } from '../../server/photos/jobs.ts';
import { startWorker } from '../../workers/worker.ts';
import { benchServices, cameraJpeg, percentile, row, seedOneCat } from '../lib.ts';
import type { BenchRow, Scenario } from '../types.ts';

const PHOTOS_UNDER_LOAD = 20;
const LOAD_CONNECTIONS = 4;

async function bareResize(file: string, outDir: string): Promise<void> {
  await Promise.all(
    Object.entries(VARIANT_SIZES).map(([name, size]) =>
      sharp(file)
        .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toFile(path.join(outDir, `bare_${name}.webp`)),
    ),
  );
}

/** A user and a cat to attach photos to; returns the cat's id. */
async function uploadOver(baseUrl: string, catId: number, token: string, jpeg: Buffer): Promise<number> {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'bench.jpg');
  const res = await fetch(`${baseUrl}/api/photos/cats/${catId}/photos`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { photo: { id: number } }).photo.id;
}

/** Light read load until `until` settles (or `seconds` pass); returns p95 and request count. */
function readLoad(url: string, seconds: number, until?: Promise<unknown>) {
  return new Promise<{ p95: number; requests: number; errors: number }>((resolve, reject) => {
    const instance = autocannon(
      { url, connections: LOAD_CONNECTIONS, duration: seconds },
      (error, result) => {
        if (error) return reject(error);
        const l = result.latency as unknown as { p90: number; p97_5: number };
        resolve({
          // autocannon reports p90 and p97.5: interpolate p95 between them.
          p95: l.p90 + ((l.p97_5 - l.p90) * (95 - 90)) / (97.5 - 90),
          requests: result.requests.total,
          errors: result.non2xx + result.errors + result.timeouts,
        });
      },
    );
    void until?.then(() => instance.stop());
  });
}

export const scenario: Scenario = {
  name: 'photos',
  async run({ quick }) {
    const repetitions = quick ? 3 : 9;
    const idleSeconds = quick ? 4 : 10;
    const uploadDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-bench-photos-'));
    const database = await openDatabase({ url: null });
    await migrateToLatest(database.db);
    const services = await benchServices(database, { uploadDir });
    const app = await buildApp(services, { serveClient: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    let worker: Awaited<ReturnType<typeof startWorker>> | null = null;
    try {
      const catId = await seedOneCat(services, { bodega: 'Bench Deli', address: '1 Bench St', breed: '' });
      const catPath = `/api/cats/${catId}`;
      const token = app.issueToken({ id: 1, username: 'bench' });
      const jpeg = await cameraJpeg({ width: 4000, height: 3000, seed: 12345, quality: 88 });
      const original = path.join(uploadDir, 'bench-original.jpg');
      await fs.writeFile(original, jpeg);
      const processPhoto = createPhotosProcessor(services);

      // 1. Time per photo: the real job against a bare resize, alternating to share any drift.
      const job: number[] = [];
      const bare: number[] = [];
      await bareResize(original, uploadDir); // warm-up of both code paths
      await processPhoto(
        { photo_id: await uploadOver(baseUrl, catId, token, jpeg) },
        { id: 'warm', attempt: 1 },
      );
      for (let i = 0; i < repetitions; i++) {
        const photoId = await uploadOver(baseUrl, catId, token, jpeg);
        let t0 = performance.now();
        await processPhoto({ photo_id: photoId }, { id: `bench-${i}`, attempt: 1 });
        job.push(performance.now() - t0);
        t0 = performance.now();
        await bareResize(original, uploadDir);
        bare.push(performance.now() - t0);
      }
      const median = (xs: number[]) =>
        percentile(
          [...xs].sort((a, b) => a - b),
          50,
        );
      const jobMs = median(job);
      const bareMs = median(bare);

      // 2. The api under a light read load, idle and while 20 uploads are processed.
      const readPath = (await fetch(`${baseUrl}${catPath}`)).ok ? catPath : '/api/health';
      const readUrl = `${baseUrl}${readPath}`;
      const idle = await readLoad(readUrl, idleSeconds);
      for (let i = 0; i < PHOTOS_UNDER_LOAD; i++) await uploadOver(baseUrl, catId, token, jpeg);
      const started = performance.now();
      // The worker starts with 20 photos waiting in the log; the load runs until all are done.
      const processing = (async () => {
        worker = await startWorker(services, { pollMs: 100 });
        await worker.dispatcher.drain();
        await services.queue.idle();
      })();
      const loaded = await readLoad(readUrl, 120, processing);
      await processing;
      const processingSeconds = (performance.now() - started) / 1000;
      const ready = await database.db
        .selectFrom('photos')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'ready')
        .executeTakeFirstOrThrow();
      if (Number(ready.n) < PHOTOS_UNDER_LOAD + repetitions + 1)
        throw new Error(`only ${ready.n} photos were processed`);
      if (idle.errors + loaded.errors > 0) throw new Error('the read load saw errors');

      const rows: BenchRow[] = [
        row('photos', '12 MP JPEG -> thumb + large WebP (median)', 'ms', jobMs, bareMs, 'bare sharp resize', {
          text: 'ratio <= 1.3',
          pass: jobMs / bareMs <= 1.3,
        }),
        row(
          'photos',
          `api p95 GET ${readPath.replace(/\d+$/, ':id')} while ${PHOTOS_UNDER_LOAD} photos process`,
          'ms',
          loaded.p95,
          idle.p95,
          'same load, idle',
          { text: 'ratio <= 2', pass: loaded.p95 / idle.p95 <= 2 },
        ),
        row(
          'photos',
          `time to process ${PHOTOS_UNDER_LOAD} photos under load (per photo)`,
          'ms',
          (processingSeconds * 1000) / PHOTOS_UNDER_LOAD,
          jobMs,
          'one photo, no load',
        ),
      ];
      return rows;
    } finally {
      await app.close();
      await (worker as Awaited<ReturnType<typeof startWorker>> | null)?.stop();
      await services.queue.close();
      await database.close();
      await fs.rm(uploadDir, { recursive: true, force: true });
    }
  },
};
