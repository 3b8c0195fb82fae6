// Deleting a cat or a bodega deletes its photos through the log, in the same transaction, and the
// photos job removes their files (original and variants) from UPLOAD_DIR; other photos keep theirs.
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../server/domains.ts';
import { replay } from '../../../server/events/replay.ts';
import { createPhotosProcessor } from '../../../server/photos/jobs.ts';
import { call } from '../../helpers/app.ts';
import { corruptJpeg, imageOf } from '../../fixtures/images.ts';
import { connectStream, listenOnLoopback, type StreamClient } from '../live/stream-client.ts';
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

type Uploaded = { id: number; filename: string };

let t: PhotoTestApp;
let base: string;
let owner: TestUser;
let uploader: TestUser;
let stranger: TestUser;
const streams: StreamClient[] = [];

beforeAll(async () => {
  t = await createPhotoTestApp();
  base = await listenOnLoopback(t.app);
  owner = await createUser(t, 'owner');
  uploader = await createUser(t, 'uploader');
  stranger = await createUser(t, 'stranger');
});
afterAll(async () => {
  await Promise.all(streams.map((s) => s.close()));
  await t.close();
});

const db = () => t.services.database.db;

/** Every file under UPLOAD_DIR that belongs to the photo (its names all start with its filename). */
async function filesOf(photo: Uploaded): Promise<string[]> {
  return (await filesUnder(t.uploadDir)).filter((f) => path.basename(f).startsWith(photo.filename));
}

async function photoIdsOf(type: 'cat' | 'bodega', id: number): Promise<number[]> {
  const rows = await db()
    .selectFrom('photos')
    .select('id')
    .where('target_type', '=', type)
    .where('target_id', '=', id)
    .execute();
  return rows.map((r) => Number(r.id));
}

/** Types of the events in the transaction that appended `streamId`'s event of type `type`, in order. */
async function transactionOf(streamId: string, type: string): Promise<{ stream: string; type: string }[]> {
  const { rows } = await sql<{ stream_id: string; type: string }>`
    select stream_id, type from events
    where transaction_id = (
      select transaction_id from events where stream_id = ${streamId} and type = ${type})
    order by global_position`.execute(db());
  return rows.map((r) => ({ stream: r.stream_id, type: r.type }));
}

async function photoStreamTypes(photo: Uploaded): Promise<string[]> {
  const rows = await db()
    .selectFrom('events')
    .select('type')
    .where('stream_id', '=', `photo-${photo.id}`)
    .orderBy('global_position')
    .execute();
  return rows.map((r) => r.type);
}

async function deleteItem(folder: 'cats' | 'bodegas', id: number, token: string, headers = {}) {
  const res = await t.app.inject({
    method: 'DELETE',
    url: `/api/${folder}/${id}`,
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
  return res.statusCode;
}

async function listen(): Promise<StreamClient> {
  const client = await connectStream(base);
  streams.push(client);
  return client;
}

/** Deletion messages the client heard, as `type id`. */
const deletionsHeard = (client: StreamClient) =>
  client
    .events()
    .filter((m) => m.type.endsWith('.deleted'))
    .map((m) => `${m.type} ${m.data.id}`);

/** No file under UPLOAD_DIR belongs to a photo that is no longer in the read model. */
async function expectNoOrphanFiles(): Promise<void> {
  const rows = await db().selectFrom('photos').select('filename').execute();
  const kept = rows.map((r) => r.filename);
  const orphans = (await filesUnder(t.uploadDir)).filter(
    (f) => !kept.some((name) => path.basename(f).startsWith(name)),
  );
  expect(orphans).toEqual([]);
}

describe('deleting a cat or a bodega removes its photos and their files', () => {
  it('deleting a cat removes every file of its photos, and only those', async () => {
    const bodegaId = await addBodega(t, owner.id, 'Mango Deli');
    const catId = await addCat(t, owner.id, bodegaId);
    const sibling = await addCat(t, owner.id, bodegaId);
    const elsewhere = await addCat(t, owner.id);
    const doomed = [
      await uploadPhoto(t, 'cats', catId, await imageOf('jpeg', 1600, 1200), uploader.token),
      await uploadPhoto(t, 'cats', catId, await imageOf('png'), owner.token),
      await uploadPhoto(t, 'cats', catId, await imageOf('gif'), uploader.token),
    ];
    const kept = [
      await uploadPhoto(t, 'cats', sibling, await imageOf('webp'), uploader.token),
      await uploadPhoto(t, 'bodegas', bodegaId, await imageOf('jpeg'), uploader.token),
      await uploadPhoto(t, 'cats', elsewhere, await imageOf('png'), uploader.token),
    ];
    await t.settle();
    for (const photo of [...doomed, ...kept]) expect(await filesOf(photo)).toHaveLength(2);

    const client = await listen();
    expect(await deleteItem('cats', catId, owner.token)).toBe(200);
    await t.settle();

    for (const photo of doomed) {
      expect(await filesOf(photo)).toEqual([]);
      expect(await photoStreamTypes(photo)).toEqual(['PhotoUploaded', 'PhotoProcessed', 'PhotoDeleted']);
    }
    for (const photo of kept) expect(await filesOf(photo)).toHaveLength(2);
    expect(await photoIdsOf('cat', catId)).toEqual([]);
    expect(await photoIdsOf('bodega', bodegaId)).toEqual([kept[1]!.id]);
    // The photos leave the log first, in the same transaction as the cat.
    expect(await transactionOf(`cat-${catId}`, 'CatDeleted')).toEqual([
      ...doomed.map((p) => ({ stream: `photo-${p.id}`, type: 'PhotoDeleted' })),
      { stream: `cat-${catId}`, type: 'CatDeleted' },
    ]);
    // Clients hear of the cat's deletion only, as before.
    await client.waitFor(() => deletionsHeard(client).includes(`cat.deleted ${catId}`));
    expect(deletionsHeard(client)).toEqual([`cat.deleted ${catId}`]);
    await expectNoOrphanFiles();
  });

  it("deleting a bodega removes the files of its photos and of its cats' photos", async () => {
    const bodegaId = await addBodega(t, owner.id, 'Lucky Star');
    const cats = [await addCat(t, owner.id, bodegaId), await addCat(t, uploader.id, bodegaId)];
    const otherBodega = await addBodega(t, owner.id, 'Green Apple');
    const otherCat = await addCat(t, owner.id, otherBodega);
    const doomed = [
      await uploadPhoto(t, 'bodegas', bodegaId, await imageOf('jpeg'), uploader.token),
      await uploadPhoto(t, 'bodegas', bodegaId, await imageOf('webp'), owner.token),
      await uploadPhoto(t, 'cats', cats[0]!, await imageOf('png'), uploader.token),
      await uploadPhoto(t, 'cats', cats[1]!, await imageOf('jpeg', 900, 1400), uploader.token),
      await uploadPhoto(t, 'cats', cats[1]!, await imageOf('gif'), owner.token),
    ];
    // A photo that failed processing has no file left: its original went when it failed.
    const failed = await uploadPhoto(t, 'cats', cats[0]!, corruptJpeg(), uploader.token);
    const kept = [
      await uploadPhoto(t, 'bodegas', otherBodega, await imageOf('png'), uploader.token),
      await uploadPhoto(t, 'cats', otherCat, await imageOf('webp'), uploader.token),
    ];
    await t.settle();
    for (const photo of [...doomed, ...kept]) expect(await filesOf(photo)).toHaveLength(2);
    expect(await filesOf(failed)).toEqual([]);

    const client = await listen();
    expect(await deleteItem('bodegas', bodegaId, owner.token)).toBe(200);
    await t.settle();

    for (const photo of [...doomed, failed]) expect(await filesOf(photo)).toEqual([]);
    for (const photo of kept) expect(await filesOf(photo)).toHaveLength(2);
    expect(await photoIdsOf('bodega', bodegaId)).toEqual([]);
    for (const cat of cats) expect(await photoIdsOf('cat', cat)).toEqual([]);
    expect(await photoIdsOf('cat', otherCat)).toEqual([kept[1]!.id]);
    // Each cat's photos go before the cat, the bodega's own photos before the bodega.
    const byStream = (ids: number[]) => ids.map((id) => ({ stream: `photo-${id}`, type: 'PhotoDeleted' }));
    expect(await transactionOf(`bodega-${bodegaId}`, 'BodegaDeleted')).toEqual([
      ...byStream([doomed[2]!.id, failed.id]),
      { stream: `cat-${cats[0]}`, type: 'CatDeleted' },
      ...byStream([doomed[3]!.id, doomed[4]!.id]),
      { stream: `cat-${cats[1]}`, type: 'CatDeleted' },
      ...byStream([doomed[0]!.id, doomed[1]!.id]),
      { stream: `bodega-${bodegaId}`, type: 'BodegaDeleted' },
    ]);
    await client.waitFor(() => deletionsHeard(client).includes(`bodega.deleted ${bodegaId}`));
    expect(deletionsHeard(client)).toEqual([
      `cat.deleted ${cats[0]}`,
      `cat.deleted ${cats[1]}`,
      `bodega.deleted ${bodegaId}`,
    ]);
    await expectNoOrphanFiles();
  });

  it('a single photo deletion is still announced as photo.deleted', async () => {
    const catId = await addCat(t, owner.id);
    const [first, second] = [
      await uploadPhoto(t, 'cats', catId, await imageOf('jpeg'), uploader.token),
      await uploadPhoto(t, 'cats', catId, await imageOf('png'), uploader.token),
    ];
    await t.settle();
    const client = await listen();
    const res = await call(
      t.app,
      'DELETE',
      `/api/photos/cats/${catId}/photos/${first!.id}`,
      undefined,
      owner.token,
    );
    expect(res.status).toBe(200);
    await client.waitFor(() => deletionsHeard(client).length > 0);
    expect(deletionsHeard(client)).toEqual([`photo.deleted ${first!.id}`]);
    await t.settle();
    expect(await filesOf(first!)).toEqual([]);
    expect(await filesOf(second!)).toHaveLength(2);
  });

  it('a refused deletion deletes no photo and removes no file', async () => {
    const bodegaId = await addBodega(t, owner.id, 'Refusal Deli');
    const catId = await addCat(t, owner.id, bodegaId);
    const photos = [
      await uploadPhoto(t, 'cats', catId, await imageOf('jpeg'), uploader.token),
      await uploadPhoto(t, 'bodegas', bodegaId, await imageOf('png'), uploader.token),
    ];
    await t.settle();
    expect(await deleteItem('cats', catId, stranger.token)).toBe(403);
    expect(await deleteItem('bodegas', bodegaId, stranger.token)).toBe(403);
    // The cat is at version 1: a stale If-Match is refused after the cat was loaded.
    expect(await deleteItem('cats', catId, owner.token, { 'if-match': '7' })).toBe(409);
    expect(await deleteItem('bodegas', bodegaId, owner.token, { 'if-match': '7' })).toBe(409);
    await t.settle();
    for (const photo of photos) {
      expect(await photoStreamTypes(photo)).toEqual(['PhotoUploaded', 'PhotoProcessed']);
      expect(await filesOf(photo)).toHaveLength(2);
    }
  });

  it('a deletion whose transaction fails after its photos were deleted leaves everything in place', async () => {
    const bodegaId = await addBodega(t, owner.id, 'Rollback Deli');
    const catId = await addCat(t, owner.id, bodegaId);
    const photos = [
      await uploadPhoto(t, 'cats', catId, await imageOf('jpeg'), uploader.token),
      await uploadPhoto(t, 'bodegas', bodegaId, await imageOf('webp'), uploader.token),
    ];
    await t.settle();
    // The bodega's own event is the last append of the deletion: refuse it, so the cat's and the
    // photos' deletions in the same transaction have already been appended when it fails.
    const stream = sql.lit(`bodega-${bodegaId}`);
    await sql`create function refuse_bodega_deletion() returns trigger language plpgsql as $$
      begin raise exception 'bodega deletion refused'; end $$`.execute(db());
    await sql`create trigger refuse_bodega_deletion before insert on events for each row
      when (new.type = 'BodegaDeleted' and new.stream_id = ${stream})
      execute function refuse_bodega_deletion()`.execute(db());
    try {
      expect(await deleteItem('bodegas', bodegaId, owner.token)).toBe(500);
    } finally {
      await sql`drop trigger refuse_bodega_deletion on events`.execute(db());
      await sql`drop function refuse_bodega_deletion()`.execute(db());
    }
    await t.settle();
    for (const photo of photos) {
      expect(await photoStreamTypes(photo)).toEqual(['PhotoUploaded', 'PhotoProcessed']);
      expect(await filesOf(photo)).toHaveLength(2);
    }
    expect(await photoIdsOf('cat', catId)).toEqual([photos[0]!.id]);
    expect(await photoIdsOf('bodega', bodegaId)).toEqual([photos[1]!.id]);
    expect((await call(t.app, 'GET', `/api/cats/${catId}`)).status).toBe(200);

    // Nothing was half done: the same deletion now goes through whole.
    expect(await deleteItem('bodegas', bodegaId, owner.token)).toBe(200);
    await t.settle();
    for (const photo of photos) expect(await filesOf(photo)).toEqual([]);
  });

  it('the photos job removes what a deleted photo left behind, and only what the log says is deleted', async () => {
    const processPhoto = createPhotosProcessor(t.services);
    const job = { id: 'by-hand', attempt: 1 };
    const catId = await addCat(t, owner.id);
    const photo = await uploadPhoto(t, 'cats', catId, await imageOf('jpeg'), uploader.token);
    await t.settle();
    const files = await filesOf(photo);
    const saved = await Promise.all(files.map((f) => fs.readFile(path.join(t.uploadDir, f))));
    expect(await deleteItem('cats', catId, owner.token)).toBe(200);
    await t.settle();
    expect(await filesOf(photo)).toEqual([]);
    // As if the removal had failed or the process had stopped before it: a re-run of the job removes them.
    await Promise.all(files.map((f, i) => fs.writeFile(path.join(t.uploadDir, f), saved[i]!)));
    await processPhoto({ photo_id: photo.id }, job);
    expect(await filesOf(photo)).toEqual([]);

    // A photo whose row went without a PhotoDeleted of its own (a cat deleted before photos were
    // deleted with it) is not the job's to remove.
    const bodegaId = await addBodega(t, owner.id, 'Old History Deli');
    const oldCat = await addCat(t, owner.id, bodegaId);
    const kept = await uploadPhoto(t, 'cats', oldCat, await imageOf('png'), uploader.token);
    await t.settle();
    await t.services.store.append(db(), `cat-${oldCat}`, 'any', [
      { type: 'CatDeleted', data: { cat_id: oldCat, bodega_id: bodegaId } },
    ]);
    await t.settle();
    await processPhoto({ photo_id: kept.id }, job);
    const left = await filesOf(kept);
    expect(left).toHaveLength(2);
    await Promise.all(left.map((f) => fs.rm(path.join(t.uploadDir, f))));
  });

  it('uploads racing a deletion leave no file behind, and replay agrees', async () => {
    const file = await imageOf('png', 800, 600);
    const lateUpload = (folder: 'cats' | 'bodegas', id: number) =>
      upload(t, `/api/photos/${folder}/${id}/photos`, [{ name: 'photo', file }], uploader.token);
    for (let round = 0; round < 3; round++) {
      const bodegaId = await addBodega(t, owner.id, `Race Deli ${round}`);
      const catId = await addCat(t, owner.id, bodegaId);
      const otherCat = await addCat(t, owner.id, bodegaId);
      await uploadPhoto(t, 'cats', catId, await imageOf('jpeg'), uploader.token);
      const [late, removed] = await Promise.all([
        lateUpload('cats', catId),
        deleteItem('cats', catId, owner.token),
      ]);
      expect([201, 404]).toContain(late.status);
      expect(removed).toBe(200);

      const results = await Promise.all([
        lateUpload('cats', otherCat),
        lateUpload('bodegas', bodegaId),
        deleteItem('bodegas', bodegaId, owner.token),
      ]);
      expect([201, 404]).toContain(results[0].status);
      expect([201, 404]).toContain(results[1].status);
      expect(results[2]).toBe(200);
    }
    await t.settle();
    await expectNoOrphanFiles();
    // An upload that won the race is deleted with the cat; replay must order it first too.
    const result = await replay(t.services.database, projections, { verify: true });
    expect(result.differences.filter((d) => !d.same)).toEqual([]);
  });

  it('the log alone rebuilds the same read tables', async () => {
    const result = await replay(t.services.database, projections, { verify: true });
    expect(result.differences.filter((d) => !d.same)).toEqual([]);
  });
});
