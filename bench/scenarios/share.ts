// Share links in embedded mode (PGlite, in-process queue, api and worker in one process), on
// loopback, one request at a time, interleaved so drift falls on every figure alike:
// 1. the share page /c/{id} and its card once made (kept in the process's cache) against a plain
//    GET /api/cats/{id} of the same cat;
// 2. a new card (the cat renamed before each request, so the card is made again over its primary
//    photo) against a bare sharp cover-resize of that photo to a 1200x630 PNG.
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { buildApp } from '../../server/app.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { startWorker } from '../../workers/worker.ts';
import { benchServices, cameraJpeg, percentile, row, seedOneCat } from '../lib.ts';
import type { Scenario } from '../types.ts';

/** One GET's time in ms; throws unless it answers `status` (the body is read whole). */
async function timed(url: string, headers: Record<string, string> = {}, status = 200): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== status) throw new Error(`${url} answered ${res.status}`);
  return ms;
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

export const scenario: Scenario = {
  name: 'share',
  async run({ quick }) {
    const rounds = quick ? 100 : 400;
    const newCards = quick ? 6 : 20;
    const uploadDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-bench-share-'));
    const database = await openDatabase({ url: null });
    await migrateToLatest(database.db);
    const services = await benchServices(database, { uploadDir });
    const app = await buildApp(services, { serveClient: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const worker = await startWorker(services, { pollMs: 100 });
    try {
      await seedOneCat(services, {
        bodega: "Joe's Deli",
        address: '123 Main St, New York, NY',
        breed: 'Tabby',
      });
      const token = app.issueToken({ id: 1, username: 'bench' });
      const jpeg = await cameraJpeg({ width: 2000, height: 1500, seed: 4242, quality: 85 });
      const form = new FormData();
      form.append('photo', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'bench.jpg');
      form.append('is_primary', 'true');
      const uploaded = await fetch(`${baseUrl}/api/photos/cats/1/photos`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${token}` },
      });
      if (uploaded.status !== 201)
        throw new Error(`upload failed: ${uploaded.status} ${await uploaded.text()}`);
      await worker.dispatcher.drain();
      await services.queue.idle();
      const detail = (await (await fetch(`${baseUrl}/api/cats/1`)).json()) as {
        cat: { primary_photo: string };
      };
      if (!detail.cat.primary_photo) throw new Error('the primary photo was not processed');
      const large = await (await fetch(`${baseUrl}${detail.cat.primary_photo}`)).arrayBuffer();

      // 1. Page, kept card and plain read, interleaved (after one warm-up of each).
      const page: number[] = [];
      const card: number[] = [];
      const api: number[] = [];
      for (let i = -1; i < rounds; i++) {
        const p = await timed(`${baseUrl}/c/1`);
        const c = await timed(`${baseUrl}/c/1/card.png`);
        const a = await timed(`${baseUrl}/api/cats/1`);
        if (i < 0) continue;
        page.push(p);
        card.push(c);
        api.push(a);
      }

      // 2. New cards: each rename gives the card a new version, so the next request makes it.
      const made: number[] = [];
      const bare: number[] = [];
      for (let i = 0; i < newCards; i++) {
        const renamed = await fetch(`${baseUrl}/api/cats/1`, {
          method: 'PUT',
          body: JSON.stringify({ name: `Bench Cat ${i}` }),
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        });
        if (renamed.status !== 200) throw new Error(`rename failed: ${renamed.status}`);
        const t0 = performance.now();
        const res = await fetch(`${baseUrl}/c/1/card.png`);
        await res.arrayBuffer();
        made.push(performance.now() - t0);
        if (res.headers.get('x-card-cache') !== 'miss')
          throw new Error('the renamed cat’s card was not made again');
        const t1 = performance.now();
        await sharp(Buffer.from(large)).resize(1200, 630, { fit: 'cover' }).png().toBuffer();
        bare.push(performance.now() - t1);
      }

      const apiMs = median(api);
      return [
        row('share', 'share page GET /c/:id (median)', 'ms', median(page), apiMs, 'GET /api/cats/:id'),
        row(
          'share',
          'kept card GET /c/:id/card.png (median)',
          'ms',
          median(card),
          apiMs,
          'GET /api/cats/:id',
        ),
        row(
          'share',
          'new card over the primary photo (median)',
          'ms',
          median(made),
          median(bare),
          'bare sharp cover-resize to PNG',
        ),
      ];
    } finally {
      await app.close();
      await worker.stop();
      await services.queue.close();
      await database.close();
      await fs.rm(uploadDir, { recursive: true, force: true });
    }
  },
};
