// The PhotoStorage on this machine's disk: each object is the file at its key's path under
// UPLOAD_DIR (originals/<name>.<ext>, cats/<name>_large.webp, ...), and an object being received
// is a file in incoming/ until it is kept (renamed to its key's path) or discarded.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { InvalidObjectKey, isObjectKey, type PhotoStorage, type StagedObject } from './storage.ts';

/** Where objects being received are written; no key names a file in it. */
const INCOMING = 'incoming';

/** A put's file while it is written, beside the object it becomes (see put). */
const WRITING = /\.[0-9a-f]{12}\.tmp$/;

function isMissing(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'ENOENT';
}

export function createLocalStorage(root: string): PhotoStorage {
  function fileOf(key: string): string {
    if (!isObjectKey(key) || key.startsWith(`${INCOMING}/`) || WRITING.test(key))
      throw new InvalidObjectKey(key);
    return path.join(root, ...key.split('/'));
  }

  async function stage(): Promise<StagedObject> {
    const dir = path.join(root, INCOMING);
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(dir, `${randomBytes(16).toString('hex')}.part`);
    // Opened before any byte is read: a body that breaks off then finds the file there to remove,
    // instead of a write stream still creating it after the clean-up ran.
    const writable = (await fs.open(file, 'wx')).createWriteStream();
    return {
      writable,
      async keep(key) {
        if (!writable.writableFinished)
          throw new Error('a staged object is kept only once all of it is written');
        const target = fileOf(key);
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.rename(file, target);
      },
      async discard() {
        writable.destroy();
        await fs.rm(file, { force: true });
      },
    };
  }

  return {
    stage,

    /** Writes through a temporary name and renames, so readers never see half a file. */
    async put(key, body) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const writing = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        if (Buffer.isBuffer(body)) await fs.writeFile(writing, body);
        else await pipeline(body as Readable, createWriteStream(writing, { flags: 'wx' }));
        await fs.rename(writing, file);
      } catch (error) {
        await fs.rm(writing, { force: true });
        throw error;
      }
    },

    async get(key) {
      try {
        return await fs.readFile(fileOf(key));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async open(key) {
      const file = fileOf(key);
      const stat = await fs.stat(file).catch(() => null);
      if (!stat?.isFile()) return null;
      return { body: createReadStream(file), size: stat.size, modifiedAt: stat.mtime };
    },

    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },

    async *list({ prefix = '', olderThan, after = '' }) {
      const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((error) => {
        if (isMissing(error)) return [];
        throw error;
      });
      const keys = entries
        .filter((entry) => entry.isFile())
        .map((entry) =>
          path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
        )
        .filter(
          (key) =>
            key.startsWith(prefix) &&
            key > after &&
            !key.startsWith(`${INCOMING}/`) &&
            !WRITING.test(key) &&
            isObjectKey(key),
        )
        // Keys are ASCII, so this is byte order, as an S3 listing's.
        .sort();
      for (const key of keys) {
        const stat = await fs.stat(fileOf(key)).catch(() => null);
        if (stat && stat.mtime < olderThan) yield key;
      }
    },

    /** Files in incoming/ and puts' unfinished writes (see put) a stopped process left behind. */
    async removeAbandoned({ olderThan, limit }) {
      const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch((error) => {
        if (isMissing(error)) return [];
        throw error;
      });
      let removed = 0;
      for (const entry of entries) {
        if (removed >= limit) break;
        const file = path.join(entry.parentPath, entry.name);
        const key = path.relative(root, file).split(path.sep).join('/');
        if (!entry.isFile() || !(key.startsWith(`${INCOMING}/`) || WRITING.test(key))) continue;
        const stat = await fs.stat(file).catch(() => null);
        if (!stat || stat.mtime >= olderThan) continue;
        await fs.rm(file, { force: true });
        removed += 1;
      }
      return removed;
    },

    async close() {},
  };
}
