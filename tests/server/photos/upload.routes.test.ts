import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { call } from '../../helpers/app.ts';
import { multipartForm } from '../../helpers/multipart-form.ts';
import { setRole } from '../../../server/moderation/roles.ts';
import { imageOf, jpegOfSize } from '../../fixtures/images.ts';
import {
  addBodega,
  addCat,
  createPhotoTestApp,
  createUser,
  filesUnder,
  upload,
  uploadPhoto,
  type PhotoTestApp,
  type TestUser,
} from './helpers.ts';

const TOO_LARGE = 'File too large. Please upload an image smaller than 5MB.';
const BAD_TYPE = 'Invalid file type. Please upload a JPEG, PNG, GIF, or WebP image.';

let t: PhotoTestApp;
let alice: TestUser;
let catId: number;

beforeAll(async () => {
  // No worker: these tests look at what the upload itself stores.
  t = await createPhotoTestApp({ worker: false });
  alice = await createUser(t, 'alice');
  catId = await addCat(t, alice.id);
});
afterAll(() => t.close());

const catPhotos = () => `/api/photos/cats/${catId}/photos`;

describe('POST /api/photos/{cats|bodegas}/:id/photos', () => {
  it.each(['jpeg', 'png', 'gif', 'webp'] as const)(
    'accepts a %s image and answers 201 processing',
    async (format) => {
      const file = await imageOf(format);
      // The declared name and type are deliberately wrong: only the bytes count.
      const res = await upload(
        t,
        catPhotos(),
        [{ name: 'photo', file, filename: 'upload.bin', contentType: 'application/octet-stream' }],
        alice.token,
      );
      expect(res.status).toBe(201);
      const photo = res.body.photo;
      expect(photo).toMatchObject({
        status: 'processing',
        url: null,
        thumb_url: null,
        width: null,
        height: null,
      });
      expect(photo.filename).toMatch(/^[0-9a-f]{32}$/);
      expect(new Date(photo.created_at).toISOString()).toBe(photo.created_at);
      const ext = { jpeg: 'jpg', png: 'png', gif: 'gif', webp: 'webp' }[format];
      const stored = await fs.readFile(path.join(t.uploadDir, 'originals', `${photo.filename}.${ext}`));
      expect(stored.equals(file)).toBe(true);
    },
  );

  it('never uses the client file name in a stored path', async () => {
    const file = await imageOf('jpeg');
    const res = await upload(
      t,
      catPhotos(),
      [{ name: 'photo', file, filename: '../../etc/evil-name.jpg' }],
      alice.token,
    );
    expect(res.status).toBe(201);
    const files = await filesUnder(t.uploadDir);
    expect(files.some((f) => f.includes('evil'))).toBe(false);
    expect(files).toContain(`originals/${res.body.photo.filename}.jpg`);
  });

  it('makes the first photo of a target primary, and later ones not unless asked', async () => {
    const bodegaId = await addBodega(t, alice.id, 'Primary Deli');
    const file = await imageOf('png');
    const first = await uploadPhoto(t, 'bodegas', bodegaId, file, alice.token);
    const second = await uploadPhoto(t, 'bodegas', bodegaId, file, alice.token, { is_primary: 'false' });
    expect(first.is_primary).toBe(true);
    expect(second.is_primary).toBe(false);
    const third = await uploadPhoto(t, 'bodegas', bodegaId, file, alice.token, {
      is_primary: 'true',
      caption: '  Sleeping on the bread  ',
    });
    expect(third).toMatchObject({ is_primary: true, caption: 'Sleeping on the bread' });
    const rows = await t.services.database.db
      .selectFrom('photos')
      .select(['id', 'is_primary'])
      .where('target_type', '=', 'bodega')
      .where('target_id', '=', bodegaId)
      .execute();
    expect(rows.filter((r) => r.is_primary).map((r) => Number(r.id))).toEqual([third.id]);
  });

  it('rejects a text file renamed .jpg with 415 and keeps nothing', async () => {
    const before = await filesUnder(t.uploadDir);
    const res = await upload(
      t,
      catPhotos(),
      [
        {
          name: 'photo',
          file: Buffer.from('just some notes, not a picture\n'.repeat(20)),
          filename: 'cat.jpg',
        },
      ],
      alice.token,
    );
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ error: BAD_TYPE, code: 'unsupported_media_type' });
    expect(await filesUnder(t.uploadDir)).toEqual(before);
  });

  it('rejects 5 MB + 1 byte with 413 and leaves nothing on disk', async () => {
    const before = await filesUnder(t.uploadDir);
    const res = await upload(
      t,
      catPhotos(),
      [{ name: 'photo', file: await jpegOfSize(5242881) }],
      alice.token,
    );
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: TOO_LARGE, code: 'payload_too_large' });
    expect(await filesUnder(t.uploadDir)).toEqual(before);
    expect(await filesUnder(path.join(t.uploadDir, 'incoming'))).toEqual([]);
  });

  it('accepts exactly 5 MB', async () => {
    const res = await upload(
      t,
      catPhotos(),
      [{ name: 'photo', file: await jpegOfSize(5242880) }],
      alice.token,
    );
    expect(res.status).toBe(201);
  });

  it('answers 400 when the photo part is missing', async () => {
    const res = await upload(t, catPhotos(), [{ name: 'caption', value: 'no photo here' }], alice.token);
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual({ photo: 'is required' });
    const asText = await upload(t, catPhotos(), [{ name: 'photo', value: 'cat.jpg' }], alice.token);
    expect(asText.status).toBe(400);
    expect(asText.body.details).toHaveProperty('photo');
  });

  it("ignores is_primary from anyone but the item's creator or a moderator; the uploader may not set it after", async () => {
    const bodegaId = await addBodega(t, alice.id, 'Creator Deli');
    const mallory = await createUser(t, 'mallory');
    const file = await imageOf('png');
    const primaryIds = async () =>
      (
        await t.services.database.db
          .selectFrom('photos')
          .select(['id', 'is_primary'])
          .where('target_type', '=', 'bodega')
          .where('target_id', '=', bodegaId)
          .execute()
      )
        .filter((r) => r.is_primary)
        .map((r) => Number(r.id));
    // A target's first photo becomes primary whoever uploads it (API.md).
    const first = await uploadPhoto(t, 'bodegas', bodegaId, file, mallory.token);
    expect(first.is_primary).toBe(true);
    const owners = await uploadPhoto(t, 'bodegas', bodegaId, file, alice.token, { is_primary: 'true' });
    expect(owners.is_primary).toBe(true);

    const res = await upload(
      t,
      `/api/photos/bodegas/${bodegaId}/photos`,
      [
        { name: 'photo', file },
        { name: 'is_primary', value: 'true' },
      ],
      mallory.token,
    );
    expect(res.status).toBe(201);
    expect(res.body.photo.is_primary).toBe(false);
    expect(await primaryIds()).toEqual([owners.id]);

    // Nor afterwards: choosing the primary photo is the creator's (and moderators'), on either path.
    const put = await call(
      t.app,
      'PUT',
      `/api/photos/bodegas/${bodegaId}/photos/${res.body.photo.id}/primary`,
      undefined,
      mallory.token,
    );
    expect(put.status).toBe(403);
    expect(await primaryIds()).toEqual([owners.id]);

    const moderator = await createUser(t, 'upload_moderator');
    await setRole(t.services, moderator.username, 'moderator');
    const chosen = await uploadPhoto(t, 'bodegas', bodegaId, file, moderator.token, { is_primary: 'true' });
    expect(chosen.is_primary).toBe(true);
    expect(await primaryIds()).toEqual([chosen.id]);
  });

  it('answers 400 for a caption over 300 characters or a bad is_primary, keeping nothing', async () => {
    const before = await filesUnder(t.uploadDir);
    const file = await imageOf('jpeg');
    const long = await upload(
      t,
      catPhotos(),
      [
        { name: 'photo', file },
        { name: 'caption', value: 'x'.repeat(301) },
      ],
      alice.token,
    );
    expect(long.status).toBe(400);
    expect(long.body.details).toHaveProperty('caption');
    const bad = await upload(
      t,
      catPhotos(),
      [
        { name: 'is_primary', value: 'yes' },
        { name: 'photo', file },
      ],
      alice.token,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details).toHaveProperty('is_primary');
    const ok = await upload(
      t,
      catPhotos(),
      [
        { name: 'photo', file },
        { name: 'caption', value: 'y'.repeat(300) },
      ],
      alice.token,
    );
    expect(ok.status).toBe(201);
    expect(await filesUnder(t.uploadDir)).toEqual(
      [...before, `originals/${ok.body.photo.filename}.jpg`].sort(),
    );
  });

  it('answers 404 for an unknown or non-numeric target and 401 when signed out', async () => {
    const file = await imageOf('jpeg');
    expect(
      (await upload(t, '/api/photos/cats/999999/photos', [{ name: 'photo', file }], alice.token)).status,
    ).toBe(404);
    expect(
      (await upload(t, '/api/photos/bodegas/abc/photos', [{ name: 'photo', file }], alice.token)).status,
    ).toBe(404);
    const signedOut = await upload(t, catPhotos(), [{ name: 'photo', file }]);
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.code).toBe('unauthorized');
  });

  it('answers 415 or 400, never 500, for bodies that are not a multipart form', async () => {
    const json = await call(t.app, 'POST', catPhotos(), { photo: 'x' }, alice.token);
    expect(json.status).toBe(415);
    const raw = await t.app.inject({
      method: 'POST',
      url: catPhotos(),
      payload: await imageOf('jpeg'),
      headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${alice.token}` },
    });
    expect(raw.statusCode).toBe(415);
    const noBoundary = await t.app.inject({
      method: 'POST',
      url: catPhotos(),
      payload: 'garbage',
      headers: { 'content-type': 'multipart/form-data', authorization: `Bearer ${alice.token}` },
    });
    expect(noBoundary.statusCode).toBe(400);
    const truncated = await t.app.inject({
      method: 'POST',
      url: catPhotos(),
      payload: '--b\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\n\xff\xd8\xff',
      headers: { 'content-type': 'multipart/form-data; boundary=b', authorization: `Bearer ${alice.token}` },
    });
    expect([400, 415]).toContain(truncated.statusCode);
    expect(await filesUnder(path.join(t.uploadDir, 'incoming'))).toEqual([]);
  });

  it('rejects a second file or an unknown field with 400', async () => {
    const file = await imageOf('jpeg');
    const two = await upload(
      t,
      catPhotos(),
      [
        { name: 'photo', file },
        { name: 'photo', file },
      ],
      alice.token,
    );
    expect(two.status).toBe(400);
    const unknown = await upload(
      t,
      catPhotos(),
      [
        { name: 'photo', file },
        { name: 'tags', value: 'a' },
      ],
      alice.token,
    );
    expect(unknown.status).toBe(400);
    expect(await filesUnder(path.join(t.uploadDir, 'incoming'))).toEqual([]);
  });

  it('keeps no original of an upload refused after it was kept: its cat hidden while the file arrived', async () => {
    const bob = await createUser(t, 'bob-hidden');
    const moderator = await createUser(t, 'mod-hidden');
    await setRole(t.services, moderator.username, 'moderator');
    const cat = await addCat(t, alice.id);
    const before = await filesUnder(path.join(t.uploadDir, 'originals'));
    const form = multipartForm([
      { name: 'photo', data: await imageOf('jpeg'), filename: 'cat.jpg', contentType: 'image/jpeg' },
    ]);
    // The body stops part way through the file until the cat is hidden: bob may upload when he
    // starts, and the upload's transaction then finds the cat hidden from him, after it kept the file.
    const cut = form.payload.length - 40;
    let hidden!: () => void;
    const hiddenNow = new Promise<void>((resolve) => (hidden = resolve));
    let halfway!: () => void;
    const atHalf = new Promise<void>((resolve) => (halfway = resolve));
    const body = Readable.from(
      (async function* () {
        yield form.payload.subarray(0, cut);
        halfway();
        await hiddenNow;
        yield form.payload.subarray(cut);
      })(),
    );
    const answer = t.app
      .inject({
        method: 'POST',
        url: `/api/photos/cats/${cat}/photos`,
        payload: body,
        headers: { ...form.headers, authorization: `Bearer ${bob.token}` },
      })
      .then((res) => res);
    await atHalf;
    const hide = await call(t.app, 'POST', `/api/moderation/cat/${cat}`, { action: 'hide' }, moderator.token);
    expect(hide.status).toBe(200);
    hidden();
    const res = await answer;
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'Cat not found' });
    expect(await filesUnder(path.join(t.uploadDir, 'originals'))).toEqual(before);
    expect(await filesUnder(path.join(t.uploadDir, 'incoming'))).toEqual([]);
  });

  it('returns the first result for a retried upload with the same Idempotency-Key', async () => {
    const file = await imageOf('gif');
    const headers = { 'idempotency-key': 'upload-once-1' };
    const url = catPhotos();
    const before = await filesUnder(path.join(t.uploadDir, 'originals'));
    const first = await upload(t, url, [{ name: 'photo', file }], alice.token, headers);
    const again = await upload(t, url, [{ name: 'photo', file }], alice.token, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.photo.id).toBe(first.body.photo.id);
    expect(await filesUnder(path.join(t.uploadDir, 'originals'))).toEqual(
      [...before, `${first.body.photo.filename}.gif`].sort(),
    );
    expect(await filesUnder(path.join(t.uploadDir, 'incoming'))).toEqual([]);
    const other = await upload(t, url, [{ name: 'photo', file: await imageOf('png') }], alice.token, headers);
    expect(other.status).toBe(409);
  });
});
