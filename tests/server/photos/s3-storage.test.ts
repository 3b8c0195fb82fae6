// The photo storage contract (storage-contract.ts) on the S3 backend against a real S3-compatible
// server (s3rver), plus where that backend keeps things: each object the bucket's object at its
// key, with the headers it is served with; uploads being received in a temporary file that goes
// as soon as the upload ends and then in incoming/ until kept; and what it answers while the
// server is down.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CreateBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client, createS3Storage } from '../../../server/photos/s3-storage.ts';
import { PhotoStorageUnavailable, type PhotoStorage } from '../../../server/photos/storage.ts';
import { VARIANT_CACHE_CONTROL } from '../../../server/photos/serve.ts';
import { S3RVER_CREDENTIALS, startS3Server, type S3ServerUnderTest } from '../../helpers/s3-server.ts';
import { describeStorageContract } from './storage-contract.ts';

let server: S3ServerUnderTest;
let admin: S3Client;

beforeAll(async () => {
  server = await startS3Server();
  admin = createS3Client({
    endpoint: server.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
});

afterAll(async () => {
  admin?.destroy();
  await server?.close();
});

/** Every key in the bucket, incoming/ included. */
async function allKeys(bucket: string): Promise<string[]> {
  const page = await admin.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (page.Contents ?? []).map((o) => o.Key!).sort();
}

async function filesIn(dir: string): Promise<string[]> {
  return (await fs.readdir(dir).catch(() => [])).sort();
}

/** A storage on a fresh bucket of the shared server, with its own temporary folder. */
async function s3Storage() {
  const bucket = `photos-${randomBytes(4).toString('hex')}`;
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  const tempDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-s3-temp-'));
  const storage = createS3Storage({
    bucket,
    endpoint: server.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
    tempDir,
  });
  return {
    bucket,
    tempDir,
    storage,
    /** Staged objects in incoming/ and temporary files on this host: no objects, none should stay. */
    async leftovers() {
      const staged = (await allKeys(bucket)).filter((key) => key.startsWith('incoming/'));
      return [...staged, ...(await filesIn(tempDir))];
    },
    async close() {
      await storage.close();
      await fs.rm(tempDir, { recursive: true, force: true });
    },
  };
}

describeStorageContract('s3', s3Storage);

async function receive(storage: PhotoStorage, body: Buffer) {
  const staged = await storage.stage();
  await pipeline(Readable.from([body]), staged.writable);
  return staged;
}

describe('s3 photo storage in its bucket', () => {
  it('keeps each object at its key, variants with the headers they are served with and originals private', async () => {
    const s3 = await s3Storage();
    try {
      await s3.storage.put('cats/a1_thumb.webp', Buffer.from('thumb'));
      const staged = await receive(s3.storage, Buffer.from('original'));
      // Received: in incoming/ in the bucket, and nothing left on this host's disk.
      expect((await allKeys(s3.bucket)).filter((k) => k.startsWith('incoming/'))).toHaveLength(1);
      expect(await filesIn(s3.tempDir)).toEqual([]);
      await expect(s3.storage.get('incoming/x')).rejects.toThrow(/not an object key/);
      await staged.keep('originals/a1.jpg');
      expect(await allKeys(s3.bucket)).toEqual(['cats/a1_thumb.webp', 'originals/a1.jpg']);

      const variant = await admin.send(
        new HeadObjectCommand({ Bucket: s3.bucket, Key: 'cats/a1_thumb.webp' }),
      );
      expect(variant.ContentType).toBe('image/webp');
      expect(variant.CacheControl).toBe(VARIANT_CACHE_CONTROL);
      const original = await admin.send(
        new HeadObjectCommand({ Bucket: s3.bucket, Key: 'originals/a1.jpg' }),
      );
      expect(original.ContentType).toBe('image/jpeg');
      expect(original.CacheControl).toBe('private, no-store');
    } finally {
      await s3.close();
    }
  });

  it('writes an upload to a temporary file while it arrives and removes it when the body breaks off', async () => {
    const s3 = await s3Storage();
    try {
      const staged = await s3.storage.stage();
      staged.writable.write(Buffer.from('half'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(await filesIn(s3.tempDir)).toHaveLength(1);
      await expect(staged.keep('originals/b2.jpg')).rejects.toThrow(/all of it is written/);
      staged.writable.destroy();
      await staged.discard();
      expect(await filesIn(s3.tempDir)).toEqual([]);
      expect(await allKeys(s3.bucket)).toEqual([]);
    } finally {
      await s3.close();
    }
  });

  it('removes staged objects and temporary files that a stopped process left, and only old ones', async () => {
    const s3 = await s3Storage();
    try {
      // As a process that stopped between receiving and keeping would leave them.
      await admin.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'incoming/abandoned', Body: 'x' }));
      await fs.writeFile(path.join(s3.tempDir, 'abandoned.part'), 'x');
      await s3.storage.put('originals/c3.jpg', Buffer.from('kept'));
      expect(await s3.storage.removeAbandoned({ olderThan: new Date(Date.now() - 60_000), limit: 10 })).toBe(
        0,
      );

      const later = new Date(Date.now() + 60_000);
      expect(await s3.storage.removeAbandoned({ olderThan: later, limit: 1 })).toBe(1);
      expect(await s3.storage.removeAbandoned({ olderThan: later, limit: 10 })).toBe(1);
      expect(await allKeys(s3.bucket)).toEqual(['originals/c3.jpg']);
      expect(await filesIn(s3.tempDir)).toEqual([]);
    } finally {
      await s3.close();
    }
  });

  it('lists from after a key, in key order, across pages', async () => {
    const s3 = await s3Storage();
    try {
      const keys = Array.from({ length: 1005 }, (_, i) => `cats/k${String(i).padStart(4, '0')}_thumb.webp`);
      for (let i = 0; i < keys.length; i += 50)
        await Promise.all(keys.slice(i, i + 50).map((key) => s3.storage.put(key, Buffer.from('x'))));
      const listed: string[] = [];
      const olderThan = new Date(Date.now() + 60_000);
      for await (const key of s3.storage.list({ olderThan, after: keys[2] })) listed.push(key);
      expect(listed).toEqual(keys.slice(3));
    } finally {
      await s3.close();
    }
  });

  it('answers PhotoStorageUnavailable (a 503) while the server is down, and leaves nothing of an upload', async () => {
    const s3 = await s3Storage();
    try {
      await s3.storage.put('cats/d4_large.webp', Buffer.from('large'));
      await server.stop();
      try {
        await expect(s3.storage.get('cats/d4_large.webp')).rejects.toBeInstanceOf(PhotoStorageUnavailable);
        await expect(s3.storage.open('cats/d4_large.webp')).rejects.toMatchObject({ statusCode: 503 });
        await expect(s3.storage.put('cats/d5_large.webp', Buffer.from('x'))).rejects.toBeInstanceOf(
          PhotoStorageUnavailable,
        );
        const staged = await s3.storage.stage();
        await expect(
          pipeline(Readable.from([Buffer.from('upload')]), staged.writable),
        ).rejects.toBeInstanceOf(PhotoStorageUnavailable);
        expect(await filesIn(s3.tempDir)).toEqual([]);
        await staged.discard().catch(() => {});
      } finally {
        await server.start();
      }
      expect(await s3.storage.get('cats/d4_large.webp')).toEqual(Buffer.from('large'));
      expect(await s3.leftovers()).toEqual([]);
    } finally {
      await s3.close();
    }
  });
});
