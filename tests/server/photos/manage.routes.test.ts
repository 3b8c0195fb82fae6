// Switching the primary photo (only the item's creator or a moderator) and deleting photos (only the
// photo's uploader or the item's creator).
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/app.ts';
import { imageOf } from '../../fixtures/images.ts';
import { setRole } from '../../../server/moderation/roles.ts';
import { listPhotos } from '../../../server/photos/read.ts';
import {
  addBodega,
  addCat,
  createPhotoTestApp,
  createUser,
  filesUnder,
  uploadPhoto,
  type PhotoTestApp,
  type TestUser,
} from './helpers.ts';

let t: PhotoTestApp;
let creator: TestUser;
let uploader: TestUser;
let stranger: TestUser;
let moderator: TestUser;

beforeAll(async () => {
  t = await createPhotoTestApp();
  creator = await createUser(t, 'creator');
  uploader = await createUser(t, 'uploader');
  stranger = await createUser(t, 'stranger');
  moderator = await createUser(t, 'moderator');
  await setRole(t.services, moderator.username, 'moderator');
});
afterAll(() => t.close());

async function catWithPhotos(count: number, createdBy: number | null = creator.id) {
  const catId = await addCat(t, createdBy);
  const photos = [];
  for (let i = 0; i < count; i++)
    photos.push(await uploadPhoto(t, 'cats', catId, await imageOf('jpeg'), uploader.token));
  await t.settle();
  return { catId, photos };
}

const primaryOf = async (type: 'cat' | 'bodega', id: number) =>
  (await listPhotos(t.services.database.db, type, id)).filter((p) => p.is_primary).map((p) => p.id);

describe('PUT /api/photos/{cats|bodegas}/:id/photos/:photoId/primary', () => {
  it('lets the creator and a moderator switch the primary photo, keeping exactly one', async () => {
    const { catId, photos } = await catWithPhotos(3);
    const [a, b, c] = photos.map((p) => p.id);
    expect(await primaryOf('cat', catId)).toEqual([a]);
    const put = (photoId: number | undefined, as: TestUser) =>
      call(t.app, 'PUT', `/api/photos/cats/${catId}/photos/${photoId}/primary`, undefined, as.token);

    const byCreator = await put(b, creator);
    expect(byCreator.status).toBe(200);
    expect(byCreator.body.photo).toMatchObject({ id: b, is_primary: true, status: 'ready' });
    expect(await primaryOf('cat', catId)).toEqual([b]);

    expect((await put(c, moderator)).status).toBe(200);
    expect(await primaryOf('cat', catId)).toEqual([c]);

    expect((await put(c, creator)).status).toBe(200);
    expect(await primaryOf('cat', catId)).toEqual([c]);
  });

  it("refuses the photo's uploader on someone else's item (403): an upload cannot take over the primary photo", async () => {
    const { catId, photos } = await catWithPhotos(2);
    const [first, second] = photos.map((p) => p.id);
    const put = (photoId: number | undefined) =>
      call(t.app, 'PUT', `/api/photos/cats/${catId}/photos/${photoId}/primary`, undefined, uploader.token);
    const refused = await put(second);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: "Only the cat's creator or a moderator can choose its primary photo",
      code: 'forbidden',
    });
    // Not even for the photo that is primary already: the answer does not tell which one is.
    expect((await put(first)).status).toBe(403);
    expect(await primaryOf('cat', catId)).toEqual([first]);
    // Deleting their own photo stays theirs.
    const deleted = await call(
      t.app,
      'DELETE',
      `/api/photos/cats/${catId}/photos/${second}`,
      undefined,
      uploader.token,
    );
    expect(deleted.status).toBe(200);
  });

  it('leaves the primary photo of an item with no creator to moderators', async () => {
    const { catId, photos } = await catWithPhotos(2, null);
    const [first, second] = photos.map((p) => p.id);
    expect(await primaryOf('cat', catId)).toEqual([first]);
    const url = `/api/photos/cats/${catId}/photos/${second}/primary`;
    expect((await call(t.app, 'PUT', url, undefined, uploader.token)).status).toBe(403);
    expect((await call(t.app, 'PUT', url, undefined, stranger.token)).status).toBe(403);
    expect(await primaryOf('cat', catId)).toEqual([first]);
    expect((await call(t.app, 'PUT', url, undefined, moderator.token)).status).toBe(200);
    expect(await primaryOf('cat', catId)).toEqual([second]);
  });

  it('refuses other users (403), signed-out callers (401) and photos of another target (404)', async () => {
    const { catId, photos } = await catWithPhotos(2);
    const other = await catWithPhotos(1);
    const url = `/api/photos/cats/${catId}/photos/${photos[1]!.id}/primary`;
    expect((await call(t.app, 'PUT', url, undefined, stranger.token)).status).toBe(403);
    expect((await call(t.app, 'PUT', url)).status).toBe(401);
    const foreign = `/api/photos/cats/${catId}/photos/${other.photos[0]!.id}/primary`;
    expect((await call(t.app, 'PUT', foreign, undefined, creator.token)).status).toBe(404);
    const asBodega = `/api/photos/bodegas/${catId}/photos/${photos[1]!.id}/primary`;
    expect((await call(t.app, 'PUT', asBodega, undefined, creator.token)).status).toBe(404);
    expect(
      (await call(t.app, 'PUT', `/api/photos/cats/${catId}/photos/999999/primary`, undefined, creator.token))
        .status,
    ).toBe(404);
    expect(
      (await call(t.app, 'PUT', `/api/photos/cats/${catId}/photos/nope/primary`, undefined, creator.token))
        .status,
    ).toBe(404);
    expect(await primaryOf('cat', catId)).toEqual([photos[0]!.id]);
  });

  it('refuses to make a photo that failed processing primary', async () => {
    const catId = await addCat(t, creator.id);
    await uploadPhoto(t, 'cats', catId, await imageOf('png'), uploader.token);
    const broken = await uploadPhoto(
      t,
      'cats',
      catId,
      Buffer.from('GIF89a this is not a gif at all'),
      uploader.token,
    );
    await t.settle();
    const res = await call(
      t.app,
      'PUT',
      `/api/photos/cats/${catId}/photos/${broken.id}/primary`,
      undefined,
      creator.token,
    );
    expect(res.status).toBe(409);
  });
});

describe('DELETE /api/photos/{cats|bodegas}/:id/photos/:photoId', () => {
  it('lets the uploader delete, removes the files, and promotes the oldest remaining photo', async () => {
    const { catId, photos } = await catWithPhotos(3);
    const [a, b, c] = photos;
    const filesOf = (filename: string) => async () =>
      (await filesUnder(t.uploadDir)).filter((f) => path.basename(f).startsWith(filename));
    expect(await filesOf(a!.filename)()).toHaveLength(2);

    const res = await call(
      t.app,
      'DELETE',
      `/api/photos/cats/${catId}/photos/${a!.id}`,
      undefined,
      uploader.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toEqual(expect.any(String));
    expect(await filesOf(a!.filename)()).toEqual([]);
    expect(await filesOf(b!.filename)()).toHaveLength(2);
    expect((await listPhotos(t.services.database.db, 'cat', catId)).map((p) => p.id)).toEqual([b!.id, c!.id]);
    expect(await primaryOf('cat', catId)).toEqual([b!.id]);

    const again = await call(
      t.app,
      'DELETE',
      `/api/photos/cats/${catId}/photos/${a!.id}`,
      undefined,
      uploader.token,
    );
    expect(again.status).toBe(404);
  });

  it('lets the creator delete a photo someone else uploaded; deleting a non-primary keeps the primary', async () => {
    const bodegaId = await addBodega(t, creator.id, 'Delete Deli');
    const first = await uploadPhoto(t, 'bodegas', bodegaId, await imageOf('webp'), uploader.token);
    const second = await uploadPhoto(t, 'bodegas', bodegaId, await imageOf('webp'), uploader.token);
    await t.settle();
    const res = await call(
      t.app,
      'DELETE',
      `/api/photos/bodegas/${bodegaId}/photos/${second.id}`,
      undefined,
      creator.token,
    );
    expect(res.status).toBe(200);
    expect(await primaryOf('bodega', bodegaId)).toEqual([first.id]);
  });

  it('refuses other users (403) and signed-out callers (401), keeping photo and files', async () => {
    const { catId, photos } = await catWithPhotos(1);
    const url = `/api/photos/cats/${catId}/photos/${photos[0]!.id}`;
    expect((await call(t.app, 'DELETE', url, undefined, stranger.token)).status).toBe(403);
    expect((await call(t.app, 'DELETE', url)).status).toBe(401);
    expect(
      (
        await call(
          t.app,
          'DELETE',
          `/api/photos/cats/999999/photos/${photos[0]!.id}`,
          undefined,
          creator.token,
        )
      ).status,
    ).toBe(404);
    expect(await listPhotos(t.services.database.db, 'cat', catId)).toHaveLength(1);
    const large = path.join(t.uploadDir, 'cats', `${photos[0]!.filename}_large.webp`);
    await expect(fs.stat(large)).resolves.toBeTruthy();
  });

  it('a deleted cat takes its photos out of the read model', async () => {
    const { catId, photos } = await catWithPhotos(2);
    const bodega = await t.services.database.db
      .selectFrom('cats')
      .select('bodega_id')
      .where('id', '=', catId)
      .executeTakeFirstOrThrow();
    await t.services.store.append(t.services.database.db, `cat-${catId}`, 'any', [
      { type: 'CatDeleted', data: { cat_id: catId, bodega_id: Number(bodega.bodega_id) } },
    ]);
    expect(photos).toHaveLength(2);
    expect(await listPhotos(t.services.database.db, 'cat', catId)).toEqual([]);
  });
});
