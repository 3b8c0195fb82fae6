// The reconciler's sweep of photo objects no photo refers to, on both storages: an original whose
// photo was never recorded or is processed, variants of a photo that is gone and an upload a
// stopped process left are removed once older than the minimum age, a bounded number a run, and
// logged; what photos refer to (a ready photo's variants, a processing photo's original), young
// objects and keys the photos do not make stay.
import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createPhotosProcessor } from '../../../server/photos/jobs.ts';
import type { PhotoStorage } from '../../../server/photos/storage.ts';
import { orphanObjectsSweep } from '../../../server/photos/reconcile.ts';
import { createReconciler } from '../../../workers/reconciler.ts';
import { imageOf } from '../../fixtures/images.ts';
import { addCat, createPhotoTestApp, createUser, uploadPhoto, type PhotoTestApp } from './helpers.ts';
import { createS3PhotoTestApp } from './s3-helpers.ts';

/**
 * Three seconds, in objects' times. S3 keeps whole seconds, so an object's age may read up to a
 * second more than it is: an object put just before a run still has two seconds to spare on a
 * busy machine, and one slept past the age is past it however its time was cut.
 */
const MIN_AGE_HOURS = 3 / 3600;
const PAST_MIN_AGE_MS = 4200;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const name = () => randomBytes(16).toString('hex');

async function keysOf(storage: PhotoStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of storage.list({ olderThan: new Date(Date.now() + 60_000) })) keys.push(key);
  return keys;
}

/** A logger whose lines the test reads. */
function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    }),
  );
  return { logger, lines };
}

const backends: [string, () => Promise<PhotoTestApp>][] = [
  ['local', () => createPhotoTestApp({ worker: false })],
  ['s3', () => createS3PhotoTestApp({ worker: false })],
];

describe.each(backends)('the orphan sweep on %s storage', (_backend, createApp) => {
  let t: PhotoTestApp;

  afterEach(async () => {
    await t?.close();
  });

  it('removes old objects no photo refers to, a bounded number a run, and logs them', async () => {
    t = await createApp();
    const storage = t.services.photoStorage;
    const alice = await createUser(t, 'alice');
    const cat = await addCat(t, alice.id);
    const ready = await uploadPhoto(t, 'cats', cat, await imageOf('jpeg'), alice.token);
    await createPhotosProcessor(t.services)({ photo_id: ready.id }, { id: 'test', attempt: 1 });
    const processing = await uploadPhoto(t, 'cats', cat, await imageOf('png'), alice.token);
    const kept = await keysOf(storage);
    expect(kept).toEqual([
      `cats/${ready.filename}_large.webp`,
      `cats/${ready.filename}_thumb.webp`,
      `originals/${processing.filename}.png`,
    ]);

    // Left by crashes: an original kept before its photo was recorded, variants of a photo gone,
    // the original of a processed photo whose removal failed.
    const orphans = [`originals/${name()}.jpg`, `cats/${name()}_large.webp`, `bodegas/${name()}_thumb.webp`];
    orphans.push(`originals/${ready.filename}.jpg`);
    const gone = name();
    orphans.push(`cats/${gone}_thumb.webp`);
    for (const key of orphans) await storage.put(key, Buffer.from('orphan'));
    // Not the photos' to remove.
    await storage.put('cards/cat-1.png', Buffer.from('a card'));
    // An upload received and then neither kept nor discarded.
    const staged = await storage.stage();
    await pipeline(Readable.from([Buffer.from('abandoned')]), staged.writable);

    await sleep(PAST_MIN_AGE_MS);
    const young = `originals/${name()}.gif`;
    await storage.put(young, Buffer.from('young'));

    const { logger, lines } = capturedLogger();
    const sweep = orphanObjectsSweep(
      { ...t.services, logger },
      { minAgeHours: MIN_AGE_HOURS, removeLimit: 2 },
    );
    const reconciler = createReconciler(t.services, {}, [sweep]);

    expect(await reconciler.run()).toEqual({ photos: 0, ratings: 0 });
    expect(await keysOf(storage)).toHaveLength(kept.length + orphans.length - 2 + 2);
    expect(await keysOf(storage)).toContain(young);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'removed photo objects nothing refers to',
      orphans: 2,
      abandoned: 1,
    });
    // Young at the first run; the later runs may come after its age, so it goes here.
    await storage.delete(young);

    await reconciler.run();
    expect(lines[1]).toMatchObject({ orphans: 2, abandoned: 0 });
    await reconciler.run();
    expect(lines[2]).toMatchObject({ orphans: 1, abandoned: 0 });
    expect((await keysOf(storage)).sort()).toEqual([...kept, 'cards/cat-1.png'].sort());
    expect(await sweep.run()).toBe(0);
    expect(lines).toHaveLength(3);
    expect(lines.flatMap((line) => line.keys as string[]).sort()).toEqual([...orphans].sort());
  });

  it('goes through the storage a part a run, going on from where the last run stopped', async () => {
    t = await createApp();
    const storage = t.services.photoStorage;
    const orphans = Array.from({ length: 5 }, () => `originals/${name()}.jpg`).sort();
    for (const key of orphans) await storage.put(key, Buffer.from('orphan'));
    await sleep(PAST_MIN_AGE_MS);
    const sweep = orphanObjectsSweep(t.services, { minAgeHours: MIN_AGE_HOURS, scanLimit: 2 });
    expect(await sweep.run()).toBe(2);
    expect(await keysOf(storage)).toEqual(orphans.slice(2));
    expect(await sweep.run()).toBe(2);
    expect(await sweep.run()).toBe(1);
    expect(await keysOf(storage)).toEqual([]);
  });
});
