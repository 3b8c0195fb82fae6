// Uploads go through the real dispatcher and photos worker, and come back out under /uploads.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { findCatSummary } from '../../../server/catalogue/read.ts';
import { listPhotos } from '../../../server/photos/read.ts';
import { EXIF_MAKE, exifHasGps, imageOf, phonePhotoWithGps } from '../../fixtures/images.ts';
import {
  addCat,
  createPhotoTestApp,
  createUser,
  filesUnder,
  uploadPhoto,
  type PhotoTestApp,
  type TestUser,
} from './helpers.ts';

let t: PhotoTestApp;
let alice: TestUser;
let catId: number;

beforeAll(async () => {
  t = await createPhotoTestApp();
  alice = await createUser(t, 'alice');
  catId = await addCat(t, alice.id);
});
afterAll(() => t.close());

async function fetchVariant(url: string) {
  const res = await t.app.inject({ method: 'GET', url });
  return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
}

async function catDetailPhotos(id: number) {
  const rows = await t.services.database.db
    .selectFrom('photos')
    .selectAll()
    .where('target_type', '=', 'cat')
    .where('target_id', '=', id)
    .execute();
  return rows;
}

describe('photo processing', () => {
  it('auto-orients, strips EXIF and GPS from every served variant, and serves them cacheably', async () => {
    const original = await phonePhotoWithGps();
    const input = await sharp(original).metadata();
    // The fixture really carries what must not leak.
    expect(input.orientation).toBe(6);
    expect(exifHasGps(input.exif)).toBe(true);
    expect(original.includes(Buffer.from(EXIF_MAKE))).toBe(true);

    const uploaded = await uploadPhoto(t, 'cats', catId, original, alice.token);
    await t.settle();
    const [row] = (await catDetailPhotos(catId)).filter((p) => Number(p.id) === uploaded.id);
    expect(row).toMatchObject({ status: 'ready', width: 40, height: 60, thumb_width: 40, thumb_height: 60 });

    for (const variant of ['thumb', 'large']) {
      const res = await fetchVariant(`/uploads/cats/${uploaded.filename}_${variant}.webp`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(res.body).metadata();
      expect(meta.format).toBe('webp');
      expect([meta.width, meta.height]).toEqual([40, 60]);
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(res.body.includes(Buffer.from('Exif'))).toBe(false);
      expect(res.body.includes(Buffer.from(EXIF_MAKE))).toBe(false);
    }
    // Nor is the original (EXIF, GPS and all) kept on disk once its variants exist.
    for (const file of await filesUnder(t.uploadDir)) {
      const bytes = await fs.readFile(path.join(t.uploadDir, file));
      expect(bytes.includes(Buffer.from(EXIF_MAKE)), file).toBe(false);
    }
  });

  it('writes a 320 px thumb and a 1280 px large variant without enlarging small images', async () => {
    const big = await uploadPhoto(t, 'cats', catId, await imageOf('png', 2000, 1000), alice.token);
    const small = await uploadPhoto(t, 'cats', catId, await imageOf('webp', 200, 300), alice.token);
    await t.settle();
    const rows = await catDetailPhotos(catId);
    expect(rows.find((r) => Number(r.id) === big.id)).toMatchObject({
      width: 1280,
      height: 640,
      thumb_width: 320,
      thumb_height: 160,
    });
    expect(rows.find((r) => Number(r.id) === small.id)).toMatchObject({
      width: 200,
      height: 300,
      thumb_width: 200,
      thumb_height: 300,
    });
  });

  it('keeps only the first frame of an animated GIF', async () => {
    const frame = (colour: string) =>
      sharp({ create: { width: 30, height: 20, channels: 3, background: colour } })
        .png()
        .toBuffer();
    const frames = await Promise.all([frame('#ff0000'), frame('#0000ff'), frame('#00ff00')]);
    const gif = await sharp(frames, { join: { animated: true } })
      .gif({ delay: [100, 100, 100] })
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(3);
    const uploaded = await uploadPhoto(t, 'cats', catId, gif, alice.token);
    await t.settle();
    const res = await fetchVariant(`/uploads/cats/${uploaded.filename}_large.webp`);
    const meta = await sharp(res.body).metadata();
    expect([meta.width, meta.height, meta.pages ?? 1]).toEqual([30, 20, 1]);
    const [red, green, blue] = (await sharp(res.body).stats()).channels.map((c) => Math.round(c.mean));
    expect(red).toBeGreaterThan(200);
    expect(green! + blue!).toBeLessThan(40);
  });

  it('shows ready photos with URLs in the read model and never serves originals or other paths', async () => {
    const uploaded = await uploadPhoto(t, 'cats', catId, await imageOf('jpeg'), alice.token);
    await t.settle();
    // The original is gone once the variants exist (it may carry GPS); its name is still refused.
    const originals = await filesUnder(`${t.uploadDir}/originals`);
    expect(originals.filter((f) => f.startsWith(uploaded.filename))).toEqual([]);
    const original = `${uploaded.filename}.jpg`;
    const refused = [
      `/uploads/originals/${original}`,
      `/uploads/cats/../originals/${original}`,
      `/uploads/cats/..%2Foriginals%2F${original}`,
      `/uploads/cats/%2E%2E/originals/${original}`,
      `/uploads/..%2F..%2Fetc%2Fpasswd`,
      `/uploads/cats/${uploaded.filename}_large.webp.tmp`,
      `/uploads/cats/${uploaded.filename}_huge.webp`,
      `/uploads/incoming/x.part`,
      `/uploads/cats/`,
      `/uploads/`,
    ];
    for (const url of refused) {
      const res = await fetchVariant(url);
      expect(res.status, url).toBe(404);
    }
    const ok = await fetchVariant(`/uploads/cats/${uploaded.filename}_thumb.webp`);
    expect(ok.status).toBe(200);
    const head = await t.app.inject({ method: 'HEAD', url: `/uploads/cats/${uploaded.filename}_thumb.webp` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/webp');
  });

  it('a corrupt image ends as failed and is not retried forever', async () => {
    const bad = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('not a jpeg '.repeat(80))]);
    const uploaded = await uploadPhoto(t, 'cats', catId, bad, alice.token);
    await t.settle();
    const row = (await catDetailPhotos(catId)).find((r) => Number(r.id) === uploaded.id);
    expect(row?.status).toBe('failed');
    const events = await t.services.database.db
      .selectFrom('events')
      .select('type')
      .where('stream_id', '=', `photo-${uploaded.id}`)
      .execute();
    expect(events.map((e) => e.type)).toEqual(['PhotoUploaded', 'PhotoFailed']);
    expect(await fetchVariant(`/uploads/cats/${uploaded.filename}_large.webp`)).toMatchObject({
      status: 404,
    });
  });

  it('exposes a ready primary photo as the cat summary primary_photo', async () => {
    const catWithout = await addCat(t, alice.id);
    const uploaded = await uploadPhoto(t, 'cats', catWithout, await imageOf('jpeg'), alice.token);
    expect((await findCatSummary(t.services.database.db, catWithout))?.primary_photo).toBeNull();
    await t.settle();
    expect((await findCatSummary(t.services.database.db, catWithout))?.primary_photo).toBe(
      `/uploads/cats/${uploaded.filename}_large.webp`,
    );
    const [photo] = await listPhotos(t.services.database.db, 'cat', catWithout);
    expect(photo).toMatchObject({
      id: uploaded.id,
      status: 'ready',
      is_primary: true,
      url: `/uploads/cats/${uploaded.filename}_large.webp`,
      thumb_url: `/uploads/cats/${uploaded.filename}_thumb.webp`,
    });
  });
});
