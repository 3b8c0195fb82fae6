// Every summary names both variants of its primary photo: `primary_photo` (large) for pages and
// `primary_thumb` for grids; both stay null while the photo is still processing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageOf } from '../../fixtures/images.ts';
import { createTestApp } from '../../helpers/app.ts';
import { createPhotoTestApp, uploadPhoto, type PhotoTestApp } from '../photos/helpers.ts';
import { send, signUp, type Caller } from './signed-in.ts';

type Urls = { primary_photo: unknown; primary_thumb: unknown };

describe('primary photo variants on summaries', () => {
  let t: PhotoTestApp;
  let alice: Caller;
  let catId: number;
  let bodegaId: number;
  beforeAll(async () => {
    // No worker yet: photos stay processing until `processPhotos` starts one.
    t = await createPhotoTestApp({ worker: false });
    alice = await signUp(t, 'alice');
    const res = await send(t, 'POST', '/api/cats', {
      caller: alice,
      body: { name: 'Thumbelina', bodega_name: 'Variant Deli', address: '9 Thumb St' },
    });
    expect(res.status).toBe(201);
    catId = res.body.cat.id;
    bodegaId = res.body.bodega.id;
    for (const path of [`/api/cats/${catId}/save`, `/api/bodegas/${bodegaId}/save`])
      expect((await send(t, 'POST', path, { caller: alice })).status).toBe(200);
  });
  afterAll(async () => t.close());

  /** A worker joins, processes what is waiting, and leaves. */
  async function processPhotos() {
    const worker = await createTestApp({
      sameDatabaseAs: t,
      config: { uploadDir: t.uploadDir, logLevel: 'silent' },
    });
    try {
      await worker.settle();
    } finally {
      await worker.close();
    }
  }

  const urlsOf = ({ primary_photo, primary_thumb }: Urls) => ({ primary_photo, primary_thumb });

  /** The cat's and the bodega's photo URLs as every list and page that shows them says them. */
  async function everywhere() {
    const catPage = await send(t, 'GET', `/api/cats/${catId}`, { caller: alice });
    const bodegaPage = await send(t, 'GET', `/api/bodegas/${bodegaId}`, { caller: alice });
    const savedCats = await send(t, 'GET', '/api/users/savedcats', { caller: alice });
    const savedBodegas = await send(t, 'GET', '/api/users/savedbodegas', { caller: alice });
    const viewed = await send(t, 'GET', '/api/users/recently-viewed', { caller: alice });
    const searchCats = await send(t, 'GET', '/api/search/cats?q=Thumbelina');
    const searchBodegas = await send(t, 'GET', '/api/search/bodegas?q=Variant');
    const viewedOf = (type: string) =>
      viewed.body.recently_viewed.find((item: { type: string }) => item.type === type);
    return {
      cat: [
        catPage.body.cat,
        bodegaPage.body.cats[0],
        savedCats.body.saved_cats[0],
        viewedOf('cat'),
        searchCats.body.cats[0],
      ].map(urlsOf),
      bodega: [
        bodegaPage.body.bodega,
        catPage.body.bodega,
        savedBodegas.body.saved_bodegas[0],
        viewedOf('bodega'),
        searchBodegas.body.bodegas[0],
      ].map(urlsOf),
    };
  }

  it('gives both URLs of a ready primary photo, and nulls while it is processing', async () => {
    const catPhoto = await uploadPhoto(t, 'cats', catId, await imageOf('jpeg'), alice.token);
    const bodegaPhoto = await uploadPhoto(t, 'bodegas', bodegaId, await imageOf('png'), alice.token);
    expect([catPhoto.status, bodegaPhoto.status]).toEqual(['processing', 'processing']);
    const none = { primary_photo: null, primary_thumb: null };
    expect(await everywhere()).toEqual({ cat: Array(5).fill(none), bodega: Array(5).fill(none) });

    await processPhotos();
    const catUrls = {
      primary_photo: `/uploads/cats/${catPhoto.filename}_large.webp`,
      primary_thumb: `/uploads/cats/${catPhoto.filename}_thumb.webp`,
    };
    const bodegaUrls = {
      primary_photo: `/uploads/bodegas/${bodegaPhoto.filename}_large.webp`,
      primary_thumb: `/uploads/bodegas/${bodegaPhoto.filename}_thumb.webp`,
    };
    expect(await everywhere()).toEqual({ cat: Array(5).fill(catUrls), bodega: Array(5).fill(bodegaUrls) });

    // Both are files the server really serves, not just names.
    for (const urls of [catUrls, bodegaUrls]) {
      const [thumb, large] = await Promise.all(
        [urls.primary_thumb, urls.primary_photo].map((url) => t.app.inject({ method: 'GET', url })),
      );
      expect([thumb!.statusCode, large!.statusCode]).toEqual([200, 200]);
      expect(thumb!.headers['content-type']).toBe('image/webp');
    }
  });
});
