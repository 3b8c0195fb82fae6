// Photos in a bucket with S3_PUBLIC_URL set (here the S3 server's own address of the bucket):
// every photo URL the api gives (a photo's url and thumb_url, a summary's primary_photo and
// primary_thumb) is absolute under it, and fetching it from there gets the variant with the
// headers it was stored with; the page's policy lets images load from there. The api itself still
// serves variants at /uploads and never an original.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCatSummary } from '../../../server/catalogue/read.ts';
import { listPhotos } from '../../../server/photos/read.ts';
import { imageOf } from '../../fixtures/images.ts';
import { addCat, createUser, uploadPhoto, type TestUser } from './helpers.ts';
import { createS3PhotoTestApp, type S3PhotoTestApp } from './s3-helpers.ts';

let t: S3PhotoTestApp;
let alice: TestUser;
let base: string;

beforeAll(async () => {
  t = await createS3PhotoTestApp({ publicUrl: (s3) => `${s3.endpoint}/${s3.bucket}/` });
  base = `${t.s3.endpoint}/${t.s3.bucket}`;
  alice = await createUser(t, 'alice');
});
afterAll(() => t?.close());

describe('photos in a bucket with a public URL', () => {
  it('gives absolute URLs under S3_PUBLIC_URL, which serve the variants with their cache headers', async () => {
    const catId = await addCat(t, alice.id);
    const uploaded = await uploadPhoto(t, 'cats', catId, await imageOf('jpeg'), alice.token);
    await t.settle();
    const large = `${base}/cats/${uploaded.filename}_large.webp`;
    const thumb = `${base}/cats/${uploaded.filename}_thumb.webp`;

    const [photo] = await listPhotos(t.services.database.db, 'cat', catId);
    expect(photo).toMatchObject({ url: large, thumb_url: thumb });
    const summary = await findCatSummary(t.services.database.db, catId);
    expect(summary).toMatchObject({ primary_photo: large, primary_thumb: thumb });
    const detail = await t.app.inject({ method: 'GET', url: `/api/cats/${catId}` });
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain(large);
    expect(detail.body).not.toContain('/uploads/');

    for (const url of [large, thumb]) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    // The api still answers its own paths, so links made before the switch keep working.
    const local = await t.app.inject({ method: 'GET', url: `/uploads/cats/${uploaded.filename}_thumb.webp` });
    expect(local.statusCode).toBe(200);
  });

  it('never serves an original from the api', async () => {
    await t.services.photoStorage.put('originals/fedcba9876543210fedcba9876543210.png', await imageOf('png'));
    const res = await t.app.inject({
      method: 'GET',
      url: '/uploads/originals/fedcba9876543210fedcba9876543210.png',
    });
    expect(res.statusCode).toBe(404);
    await t.services.photoStorage.delete('originals/fedcba9876543210fedcba9876543210.png');
  });

  it("lets the page load images from the public URL's origin", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const policy = String(res.headers['content-security-policy']);
    const imgSrc = policy.split(';').find((d) => d.trim().startsWith('img-src'));
    expect(imgSrc).toContain(new URL(base).origin);
  });
});
