// The photo storage contract (storage-contract.ts) on the local backend, plus where that backend
// keeps things: each object the file at its key's path under UPLOAD_DIR, uploads being received
// in incoming/, neither left behind by a write that fails.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../../server/photos/local-storage.ts';
import { describeStorageContract } from './storage-contract.ts';
import { filesUnder } from './helpers.ts';

async function localStorage() {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-storage-'));
  const storage = createLocalStorage(root);
  return {
    root,
    storage,
    /** Files that are no object: a staged upload or a put's unfinished write. */
    async leftovers() {
      const objects: string[] = [];
      for await (const key of storage.list({ olderThan: new Date(Date.now() + 60_000) })) objects.push(key);
      return (await filesUnder(root)).filter((file) => !objects.includes(file.split(path.sep).join('/')));
    },
    close: () => fs.rm(root, { recursive: true, force: true }),
  };
}

describeStorageContract('local', localStorage);

describe('local photo storage on disk', () => {
  it('keeps each object at its key under the root and receives uploads in incoming/', async () => {
    const local = await localStorage();
    try {
      await local.storage.put('cats/a1_thumb.webp', Buffer.from('thumb'));
      const staged = await local.storage.stage();
      staged.writable.end(Buffer.from('original'));
      await new Promise((resolve) => staged.writable.once('finish', resolve));
      expect((await filesUnder(local.root)).filter((f) => f.startsWith('incoming'))).toHaveLength(1);
      // A staged object is no object yet: no key names it.
      await expect(local.storage.get('incoming/x.part')).rejects.toThrow(/not an object key/);
      await staged.keep('originals/a1.jpg');
      expect(await filesUnder(local.root)).toEqual(['cats/a1_thumb.webp', 'originals/a1.jpg']);
      expect(await fs.readFile(path.join(local.root, 'originals', 'a1.jpg'), 'utf8')).toBe('original');
    } finally {
      await local.close();
    }
  });

  it('refuses to keep a staged object before all of it is written', async () => {
    const local = await localStorage();
    try {
      const staged = await local.storage.stage();
      staged.writable.write(Buffer.from('half'));
      await expect(staged.keep('originals/b2.jpg')).rejects.toThrow(/all of it is written/);
      await staged.discard();
      expect(await filesUnder(local.root)).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
