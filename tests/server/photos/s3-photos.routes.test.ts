// Photos in a bucket (PHOTO_STORAGE=s3) without S3_PUBLIC_URL, through the real routes, dispatcher
// and photos worker against a real S3 server: an upload is kept in the bucket, processed into
// variants the api streams at today's paths with today's headers, and its original removed; a
// photo's and an account's deletion remove their objects; no upload, whether it succeeds, is
// refused, is cut off by its client or meets the bucket down, leaves a file on this host or
// anything in the bucket, and a bucket that is down is a 503 in the contract's shape.
import net from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCatSummary } from '../../../server/catalogue/read.ts';
import { listPhotos } from '../../../server/photos/read.ts';
import { imageOf, jpegOfSize } from '../../fixtures/images.ts';
import { call } from '../../helpers/app.ts';
import { multipartForm } from '../../helpers/multipart-form.ts';
import { addCat, createUser, eventually, upload, uploadPhoto, type TestUser } from './helpers.ts';
import { createS3PhotoTestApp, type S3PhotoTestApp } from './s3-helpers.ts';

let t: S3PhotoTestApp;
let alice: TestUser;
let catId: number;

beforeAll(async () => {
  t = await createS3PhotoTestApp();
  alice = await createUser(t, 'alice');
  catId = await addCat(t, alice.id);
});
afterAll(() => t?.close());

const catPhotos = (id = catId) => `/api/photos/cats/${id}/photos`;

async function get(url: string) {
  const res = await t.app.inject({ method: 'GET', url });
  return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
}

async function photoCount(): Promise<number> {
  const row = await t.services.database.db
    .selectFrom('photos')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('photos in a bucket, served by the api', () => {
  it('keeps the upload in the bucket, makes its variants there, removes its original and serves the variants at /uploads', async () => {
    const uploaded = await uploadPhoto(t, 'cats', catId, await imageOf('jpeg', 400, 300), alice.token);
    // Kept under its key in the bucket, nothing left on this host.
    expect(await t.bucketKeys('originals/')).toEqual([`originals/${uploaded.filename}.jpg`]);
    expect(await t.bucketKeys('incoming/')).toEqual([]);
    expect(await t.filesOnDisk()).toEqual([]);

    await t.settle();
    expect(await t.bucketKeys('originals/')).toEqual([]);
    expect(await t.bucketKeys('cats/')).toEqual([
      `cats/${uploaded.filename}_large.webp`,
      `cats/${uploaded.filename}_thumb.webp`,
    ]);
    for (const variant of ['thumb', 'large']) {
      const res = await get(`/uploads/cats/${uploaded.filename}_${variant}.webp`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(Number(res.headers['content-length'])).toBe(res.body.length);
      expect(res.headers['last-modified']).toBeTruthy();
      const meta = await sharp(res.body).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(variant === 'thumb' ? 320 : 400);
    }

    // The read model's URLs are this server's paths.
    const summary = await findCatSummary(t.services.database.db, catId);
    expect(summary?.primary_photo).toBe(`/uploads/cats/${uploaded.filename}_large.webp`);
    const [photo] = await listPhotos(t.services.database.db, 'cat', catId);
    expect(photo).toMatchObject({
      url: `/uploads/cats/${uploaded.filename}_large.webp`,
      thumb_url: `/uploads/cats/${uploaded.filename}_thumb.webp`,
    });
    expect(await t.filesOnDisk()).toEqual([]);
  });

  it('never serves an original, even while it is in the bucket', async () => {
    // Written as an upload's original is, before its job has run.
    await t.services.photoStorage.put(
      'originals/0123456789abcdef0123456789abcdef.jpg',
      await imageOf('jpeg'),
    );
    for (const url of [
      '/uploads/originals/0123456789abcdef0123456789abcdef.jpg',
      '/uploads/cats/..%2Foriginals%2F0123456789abcdef0123456789abcdef.jpg',
      '/uploads/incoming/x',
    ])
      expect((await get(url)).status, url).toBe(404);
    await t.services.photoStorage.delete('originals/0123456789abcdef0123456789abcdef.jpg');
  });

  it("removes a deleted photo's objects from the bucket", async () => {
    const cat = await addCat(t, alice.id);
    const uploaded = await uploadPhoto(t, 'cats', cat, await imageOf('png'), alice.token);
    await t.settle();
    expect(await t.bucketKeys(`cats/${uploaded.filename}`)).toHaveLength(2);
    const res = await call(t.app, 'DELETE', `${catPhotos(cat)}/${uploaded.id}`, undefined, alice.token);
    expect(res.status).toBe(200);
    await t.settle();
    expect(await t.bucketKeys(`cats/${uploaded.filename}`)).toEqual([]);
    expect((await get(`/uploads/cats/${uploaded.filename}_large.webp`)).status).toBe(404);
  });

  it("removes an erased account's photo objects from the bucket", async () => {
    const password = 'correct horse battery';
    const registered = await call(t.app, 'POST', '/api/auth/register', {
      username: 'leaving-s3',
      email: 'leaving-s3@example.com',
      password,
    });
    expect(registered.status).toBe(201);
    const token = registered.body.access_token as string;
    const uploaded = await uploadPhoto(t, 'cats', catId, await imageOf('webp'), token);
    await t.settle();
    expect(await t.bucketKeys(`cats/${uploaded.filename}`)).toHaveLength(2);
    const deleted = await call(t.app, 'DELETE', '/api/auth/account', { password }, token);
    expect(deleted.status).toBe(200);
    await t.settle();
    expect(await t.bucketKeys(`cats/${uploaded.filename}`)).toEqual([]);
    expect(await t.bucketKeys(`originals/${uploaded.filename}`)).toEqual([]);
  });

  it('leaves nothing on disk or in the bucket of uploads refused for their size or type', async () => {
    const before = await t.bucketKeys();
    const tooBig = await upload(
      t,
      catPhotos(),
      [{ name: 'photo', file: await jpegOfSize(5242881) }],
      alice.token,
    );
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ code: 'payload_too_large' });
    const notAnImage = await upload(
      t,
      catPhotos(),
      [{ name: 'photo', file: Buffer.from('just text '.repeat(100)) }],
      alice.token,
    );
    expect(notAnImage.status).toBe(415);
    expect(notAnImage.body).toMatchObject({ code: 'unsupported_media_type' });
    expect(await t.filesOnDisk()).toEqual([]);
    expect(await t.bucketKeys()).toEqual(before);
  });

  it('leaves nothing on disk or in the bucket of an upload its client abandons part way', async () => {
    const before = await t.bucketKeys();
    const photos = await photoCount();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    {
      const form = multipartForm([
        { name: 'photo', data: await jpegOfSize(1_000_000), filename: 'cat.jpg', contentType: 'image/jpeg' },
      ]);
      const socket = net.connect(Number(new URL(address).port), '127.0.0.1');
      socket.on('error', () => {});
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      const head = [
        `POST ${catPhotos()} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Authorization: Bearer ${alice.token}`,
        ...Object.entries(form.headers).map(([name, value]) => `${name}: ${value}`),
        `Content-Length: ${form.payload.length}`,
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      socket.write(form.payload.subarray(0, 400_000));
      // The file is being written to its temporary file, then the client goes away.
      await eventually(async () => (await t.filesOnDisk()).length > 0, 5000);
      socket.destroy();
      await eventually(async () => (await t.filesOnDisk()).length === 0, 5000);
      expect(await t.bucketKeys()).toEqual(before);
    }
    expect(await photoCount()).toBe(photos);
  });

  it('answers 503 in the contract shape while the bucket is down, and leaves nothing half written', async () => {
    const before = await t.bucketKeys();
    const photos = await photoCount();
    await t.s3.stop();
    try {
      const res = await upload(t, catPhotos(), [{ name: 'photo', file: await imageOf('jpeg') }], alice.token);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        error: 'Photo storage cannot be reached right now, so nothing was saved. Please try again shortly.',
        code: 'unavailable',
      });
      const [first] = before.filter((key) => key.startsWith('cats/'));
      expect((await get(`/uploads/${first}`)).status).toBe(503);
      expect(await t.filesOnDisk()).toEqual([]);
    } finally {
      await t.s3.start();
    }
    expect(await t.bucketKeys()).toEqual(before);
    expect(await photoCount()).toBe(photos);
    // Up again, uploads work again.
    await uploadPhoto(t, 'cats', catId, await imageOf('gif'), alice.token);
  });
});
