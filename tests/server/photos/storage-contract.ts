// What every PhotoStorage backend must do, as a suite a backend's test file runs with a factory of
// fresh, empty storages (storage.test.ts runs it on the local one). Keys and streams only: nothing
// here knows where a backend keeps its objects, but for `leftovers`, the backend's own account of
// anything a write left behind that is not an object (a partial file, an unfinished upload).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PhotoStorage } from '../../../server/photos/storage.ts';

export type StorageUnderTest = {
  storage: PhotoStorage;
  /** Whatever the backend holds that is not a stored object (should be nothing after any write). */
  leftovers(): Promise<string[]>;
  close(): Promise<void>;
};

/** How far apart two writes must be for their times to differ (S3 keeps whole seconds). */
const CLOCK_STEP_MS = 1100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function keysOf(storage: PhotoStorage, options: { prefix?: string; olderThan?: Date } = {}) {
  const keys: string[] = [];
  for await (const key of storage.list({ olderThan: new Date(Date.now() + 60_000), ...options }))
    keys.push(key);
  return keys.sort();
}

/** The keys as list yields them, in its order. */
async function keysInOrder(storage: PhotoStorage, options: { prefix?: string; after?: string }) {
  const keys: string[] = [];
  for await (const key of storage.list({ olderThan: new Date(Date.now() + 60_000), ...options }))
    keys.push(key);
  return keys;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A body that sends `bytes` and then fails, as an upload cut off part way does. */
function breaksOff(bytes: Buffer): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(bytes);
      } else this.destroy(new Error('connection lost'));
    },
  });
}

const bytes = (text: string) => Buffer.from(text.repeat(1000));

export function describeStorageContract(backend: string, create: () => Promise<StorageUnderTest>): void {
  describe(`${backend} photo storage`, () => {
    let under: StorageUnderTest;
    let storage: PhotoStorage;

    beforeEach(async () => {
      under = await create();
      storage = under.storage;
    });

    afterEach(async () => {
      await under.close();
    });

    it('gets and opens what was put, from bytes or a stream, and a second put replaces the first', async () => {
      await storage.put('cats/a1_large.webp', bytes('first'));
      await storage.put('originals/b2.jpg', Readable.from([bytes('streamed'), bytes('more')]));
      expect(await storage.get('cats/a1_large.webp')).toEqual(bytes('first'));
      expect(await storage.get('originals/b2.jpg')).toEqual(
        Buffer.concat([bytes('streamed'), bytes('more')]),
      );

      await storage.put('cats/a1_large.webp', bytes('second'));
      const opened = await storage.open('cats/a1_large.webp');
      expect(opened?.size).toBe(bytes('second').length);
      expect(opened!.modifiedAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      expect(await readAll(opened!.body)).toEqual(bytes('second'));
      expect(await keysOf(storage)).toEqual(['cats/a1_large.webp', 'originals/b2.jpg']);
      expect(await under.leftovers()).toEqual([]);
    });

    it('answers null for a key with no object, and deleting one is no error', async () => {
      expect(await storage.get('originals/none.jpg')).toBeNull();
      expect(await storage.open('cats/none_thumb.webp')).toBeNull();
      await expect(storage.delete('cats/none_thumb.webp')).resolves.toBeUndefined();
    });

    it('deletes an object: no longer got, opened or listed', async () => {
      await storage.put('bodegas/c3_thumb.webp', bytes('thumb'));
      await storage.put('bodegas/c3_large.webp', bytes('large'));
      await storage.delete('bodegas/c3_thumb.webp');
      expect(await storage.get('bodegas/c3_thumb.webp')).toBeNull();
      expect(await storage.open('bodegas/c3_thumb.webp')).toBeNull();
      expect(await keysOf(storage)).toEqual(['bodegas/c3_large.webp']);
    });

    it('refuses keys that could name something other than an object', async () => {
      for (const key of [
        '../outside.jpg',
        'originals/../../x',
        '/etc/passwd',
        'cats//x.webp',
        'cats/x y.webp',
        '',
      ]) {
        await expect(storage.put(key, bytes('x')), key).rejects.toThrow(/not an object key/);
        await expect(storage.get(key), key).rejects.toThrow(/not an object key/);
        await expect(storage.delete(key), key).rejects.toThrow(/not an object key/);
      }
      expect(await keysOf(storage)).toEqual([]);
    });

    it('lists the keys under a prefix written before a time', async () => {
      await storage.put('originals/old.jpg', bytes('old'));
      await storage.put('cats/old_thumb.webp', bytes('old'));
      await sleep(CLOCK_STEP_MS);
      const between = new Date();
      await sleep(CLOCK_STEP_MS);
      await storage.put('originals/new.jpg', bytes('new'));

      expect(await keysOf(storage, { olderThan: between })).toEqual([
        'cats/old_thumb.webp',
        'originals/old.jpg',
      ]);
      expect(await keysOf(storage, { prefix: 'originals/', olderThan: between })).toEqual([
        'originals/old.jpg',
      ]);
      expect(await keysOf(storage, { prefix: 'originals/' })).toEqual([
        'originals/new.jpg',
        'originals/old.jpg',
      ]);
      expect(await keysOf(storage, { prefix: 'bodegas/' })).toEqual([]);
    });

    it('lists keys in byte order, from after a key when asked', async () => {
      const keys = ['bodegas/z9_thumb.webp', 'cats/a1_large.webp', 'cats/a1_thumb.webp', 'originals/a1.jpg'];
      for (const key of [...keys].reverse()) await storage.put(key, bytes('x'));
      expect(await keysInOrder(storage, {})).toEqual(keys);
      expect(await keysInOrder(storage, { after: 'cats/a1_large.webp' })).toEqual(keys.slice(2));
      expect(await keysInOrder(storage, { prefix: 'cats/', after: 'cats/a' })).toEqual(keys.slice(1, 3));
      expect(await keysInOrder(storage, { after: 'originals/a1.jpg' })).toEqual([]);
    });

    it('removes nothing but abandoned staged objects, and those only when old enough', async () => {
      await storage.put('originals/g7.jpg', bytes('kept'));
      const staged = await storage.stage();
      await pipeline(Readable.from([bytes('kept')]), staged.writable);
      const later = new Date(Date.now() + 60_000);
      expect(await storage.removeAbandoned({ olderThan: new Date(Date.now() - 60_000), limit: 10 })).toBe(0);
      // Staged and never kept or discarded, as a process that stopped would leave it.
      expect(await storage.removeAbandoned({ olderThan: later, limit: 10 })).toBe(1);
      expect(await keysOf(storage)).toEqual(['originals/g7.jpg']);
      expect(await under.leftovers()).toEqual([]);
    });

    it('keeps a staged object under its key once all of it is written, and discarding it then changes nothing', async () => {
      const staged = await storage.stage();
      await pipeline(Readable.from([bytes('upload')]), staged.writable);
      // Received but not yet kept: no object.
      expect(await keysOf(storage)).toEqual([]);
      await staged.keep('originals/d4.png');
      await staged.discard();
      expect(await storage.get('originals/d4.png')).toEqual(bytes('upload'));
      expect(await keysOf(storage)).toEqual(['originals/d4.png']);
      expect(await under.leftovers()).toEqual([]);
    });

    it('leaves nothing of a staged object that is discarded, written whole or cut off part way', async () => {
      const whole = await storage.stage();
      await pipeline(Readable.from([bytes('whole')]), whole.writable);
      await whole.discard();
      const cut = await storage.stage();
      await expect(pipeline(breaksOff(bytes('half')), cut.writable)).rejects.toThrow('connection lost');
      await cut.discard();
      await cut.discard();
      expect(await keysOf(storage)).toEqual([]);
      expect(await under.leftovers()).toEqual([]);
    });

    it('stores nothing of a put whose body fails part way, and keeps the object it would have replaced', async () => {
      await expect(storage.put('originals/e5.jpg', breaksOff(bytes('partial')))).rejects.toThrow(
        'connection lost',
      );
      expect(await storage.get('originals/e5.jpg')).toBeNull();

      await storage.put('cats/f6_large.webp', bytes('kept'));
      await expect(storage.put('cats/f6_large.webp', breaksOff(bytes('partial')))).rejects.toThrow(
        'connection lost',
      );
      expect(await storage.get('cats/f6_large.webp')).toEqual(bytes('kept'));
      expect(await keysOf(storage)).toEqual(['cats/f6_large.webp']);
      expect(await under.leftovers()).toEqual([]);
    });
  });
}
