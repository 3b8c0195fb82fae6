// The photos processor called directly, as a retried or late job would call it.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/app.ts';
import { corruptJpeg, imageOf } from '../fixtures/images.ts';
import sharp from 'sharp';
import { projections } from '../../server/domains.ts';
import { replay } from '../../server/events/replay.ts';
import {
  createPhotosProcessor,
  MAX_INPUT_PIXELS,
  renderVariants,
  UndecodableImage,
} from '../../server/photos/jobs.ts';
import type { Processor } from '../../server/queue/jobs.ts';
import {
  addCat,
  createPhotoTestApp,
  createUser,
  filesUnder,
  uploadPhoto,
  type PhotoTestApp,
  type TestUser,
} from '../server/photos/helpers.ts';

let t: PhotoTestApp;
let alice: TestUser;
let catId: number;
let processPhoto: Processor<'photos'>;
const job = { id: 'test', attempt: 1 };

beforeAll(async () => {
  // No worker: the test decides when, and how often, the job runs.
  t = await createPhotoTestApp({ worker: false });
  alice = await createUser(t, 'alice');
  catId = await addCat(t, alice.id);
  processPhoto = createPhotosProcessor(t.services);
});
afterAll(() => t.close());

async function eventTypes(photoId: number): Promise<string[]> {
  const rows = await t.services.database.db
    .selectFrom('events')
    .select('type')
    .where('stream_id', '=', `photo-${photoId}`)
    .orderBy('global_position')
    .execute();
  return rows.map((r) => r.type);
}

async function statusOf(photoId: number) {
  const row = await t.services.database.db
    .selectFrom('photos')
    .select('status')
    .where('id', '=', photoId)
    .executeTakeFirst();
  return row?.status;
}

const variantFiles = async (filename: string) =>
  (await filesUnder(path.join(t.uploadDir, 'cats'))).filter((f) => f.startsWith(filename));

describe('photos processor', () => {
  it('a retried job does not duplicate variants or events', async () => {
    const photo = await uploadPhoto(t, 'cats', catId, await imageOf('jpeg', 1600, 1200), alice.token);
    // Two attempts overlapping, as when a worker stalls and the job is handed to another.
    await Promise.all([
      processPhoto({ photo_id: photo.id }, job),
      processPhoto({ photo_id: photo.id }, { ...job, attempt: 2 }),
    ]);
    expect(await eventTypes(photo.id)).toEqual(['PhotoUploaded', 'PhotoProcessed']);
    expect(await statusOf(photo.id)).toBe('ready');
    const files = await variantFiles(photo.filename);
    expect(files).toEqual([`${photo.filename}_large.webp`, `${photo.filename}_thumb.webp`]);
    expect((await filesUnder(t.uploadDir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const large = path.join(t.uploadDir, 'cats', `${photo.filename}_large.webp`);
    const before = await fs.stat(large);
    await processPhoto({ photo_id: photo.id }, { ...job, attempt: 3 });
    expect(await eventTypes(photo.id)).toEqual(['PhotoUploaded', 'PhotoProcessed']);
    expect((await fs.stat(large)).mtimeMs).toBe(before.mtimeMs);
    expect(await variantFiles(photo.filename)).toEqual(files);
  });

  it('a corrupt image ends as failed, once, without throwing (so it is not retried)', async () => {
    const photo = await uploadPhoto(t, 'cats', catId, corruptJpeg(), alice.token);
    await expect(processPhoto({ photo_id: photo.id }, job)).resolves.toBeUndefined();
    await expect(processPhoto({ photo_id: photo.id }, { ...job, attempt: 2 })).resolves.toBeUndefined();
    expect(await eventTypes(photo.id)).toEqual(['PhotoUploaded', 'PhotoFailed']);
    expect(await statusOf(photo.id)).toBe('failed');
    expect(await variantFiles(photo.filename)).toEqual([]);
  });

  it('a failed primary hands the primary role to the next usable photo', async () => {
    const cat = await addCat(t, alice.id);
    const broken = await uploadPhoto(t, 'cats', cat, corruptJpeg(), alice.token);
    const good = await uploadPhoto(t, 'cats', cat, await imageOf('png'), alice.token);
    expect(broken.is_primary).toBe(true);
    await processPhoto({ photo_id: broken.id }, job);
    await processPhoto({ photo_id: good.id }, job);
    const rows = await t.services.database.db
      .selectFrom('photos')
      .select(['id', 'is_primary', 'status'])
      .where('target_type', '=', 'cat')
      .where('target_id', '=', cat)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [Number(r.id), r.status, r.is_primary])).toEqual([
      [broken.id, 'failed', false],
      [good.id, 'ready', true],
    ]);
  });

  it('records nothing more and leaves no files for a photo deleted before its job ran', async () => {
    const photo = await uploadPhoto(t, 'cats', catId, await imageOf('webp'), alice.token);
    const res = await call(
      t.app,
      'DELETE',
      `/api/photos/cats/${catId}/photos/${photo.id}`,
      undefined,
      alice.token,
    );
    expect(res.status).toBe(200);
    await processPhoto({ photo_id: photo.id }, job);
    expect(await eventTypes(photo.id)).toEqual(['PhotoUploaded', 'PhotoDeleted']);
    expect((await filesUnder(t.uploadDir)).filter((f) => f.includes(photo.filename))).toEqual([]);
  });

  it('removes the original once the variants exist; a job for a ready photo is then a no-op', async () => {
    const photo = await uploadPhoto(t, 'cats', catId, await imageOf('jpeg'), alice.token);
    const original = path.join(t.uploadDir, 'originals', `${photo.filename}.jpg`);
    await fs.access(original);
    await processPhoto({ photo_id: photo.id }, job);
    expect(await statusOf(photo.id)).toBe('ready');
    await expect(fs.access(original)).rejects.toThrow(/ENOENT/);
    const variants = await variantFiles(photo.filename);
    expect(variants).toHaveLength(2);
    const served = await t.app.inject({ method: 'GET', url: `/uploads/cats/${photo.filename}_large.webp` });
    expect(served.statusCode).toBe(200);

    // A retry, with the original already gone: nothing is recorded and nothing fails.
    await expect(processPhoto({ photo_id: photo.id }, { ...job, attempt: 2 })).resolves.toBeUndefined();
    // A retry after a crash between recording the outcome and removing the original removes it.
    await fs.writeFile(original, 'left behind');
    await expect(processPhoto({ photo_id: photo.id }, { ...job, attempt: 3 })).resolves.toBeUndefined();
    await expect(fs.access(original)).rejects.toThrow(/ENOENT/);
    expect(await eventTypes(photo.id)).toEqual(['PhotoUploaded', 'PhotoProcessed']);
    expect(await variantFiles(photo.filename)).toEqual(variants);

    // The log alone rebuilds the photo as ready: replay never needs the original.
    const result = await replay(t.services.database, projections, { verify: true });
    expect(result.differences.filter((d) => !d.same)).toEqual([]);
    expect(await statusOf(photo.id)).toBe('ready');

    // Deleting it afterwards works and leaves nothing.
    const res = await call(
      t.app,
      'DELETE',
      `/api/photos/cats/${catId}/photos/${photo.id}`,
      undefined,
      alice.token,
    );
    expect(res.status).toBe(200);
    await processPhoto({ photo_id: photo.id }, { ...job, attempt: 4 });
    expect((await filesUnder(t.uploadDir)).filter((f) => f.includes(photo.filename))).toEqual([]);
  });

  it('removes the original of a photo that could not be processed', async () => {
    const photo = await uploadPhoto(t, 'cats', catId, corruptJpeg(), alice.token);
    await processPhoto({ photo_id: photo.id }, job);
    expect(await statusOf(photo.id)).toBe('failed');
    expect((await filesUnder(t.uploadDir)).filter((f) => f.includes(photo.filename))).toEqual([]);
  });

  it('decodes a 48-megapixel phone photo but refuses anything above 50 megapixels', async () => {
    expect(MAX_INPUT_PIXELS).toBe(50_000_000);
    // A JPEG decodes at a fraction of its size (shrink-on-load), so the phone photo is cheap.
    const phone = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    const rendered = await renderVariants(phone);
    expect([rendered.large.width, rendered.large.height]).toEqual([1280, 960]);
    // 7100 x 7100 = 50.41 megapixels: refused from its header, before any decoding.
    const tooBig = await sharp({ create: { width: 7100, height: 7100, channels: 3, background: '#808080' } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    await expect(renderVariants(tooBig)).rejects.toBeInstanceOf(UndecodableImage);

    // Through the job it ends as failed, like any other image that cannot be read.
    const photo = await uploadPhoto(t, 'cats', catId, tooBig, alice.token);
    await processPhoto({ photo_id: photo.id }, job);
    expect(await statusOf(photo.id)).toBe('failed');
  });

  it('marks a photo whose original has gone missing as failed', async () => {
    const photo = await uploadPhoto(t, 'cats', catId, await imageOf('gif'), alice.token);
    await fs.rm(path.join(t.uploadDir, 'originals', `${photo.filename}.gif`));
    await processPhoto({ photo_id: photo.id }, job);
    expect(await eventTypes(photo.id)).toEqual(['PhotoUploaded', 'PhotoFailed']);
  });
});
