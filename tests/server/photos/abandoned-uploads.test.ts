// An api process clears what uploads of a killed process left on its host (abandoned-uploads.ts):
// on either storage, an upload being received that nobody will keep or discard, once it is older
// than the bound, goes as the clean-up starts; one still fresh stays; a store that is down is
// logged and tried again, never thrown.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanAbandonedUploads } from '../../../server/photos/abandoned-uploads.ts';
import { createLocalStorage } from '../../../server/photos/local-storage.ts';
import { createS3Storage } from '../../../server/photos/s3-storage.ts';
import type { PhotoStorage, StagedObject } from '../../../server/photos/storage.ts';
import { S3RVER_CREDENTIALS, startS3Server, type S3ServerUnderTest } from '../../helpers/s3-server.ts';

let server: S3ServerUnderTest;
let dir: string;

beforeAll(async () => {
  server = await startS3Server();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-abandoned-'));
});
afterAll(async () => {
  await server?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

/** Files under `root`, relative, recursively. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await fs.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

/** An upload part received: what a process killed while receiving it leaves on its host. */
async function receiving(storage: PhotoStorage): Promise<StagedObject> {
  const staged = await storage.stage();
  await new Promise<void>((resolve, reject) =>
    staged.writable.write(randomBytes(64 * 1024), (error) => (error ? reject(error) : resolve())),
  );
  return staged;
}

/** Makes the files under `root` look last written `hours` ago. */
async function age(root: string, files: string[], hours: number): Promise<void> {
  const then = new Date(Date.now() - hours * 3_600_000);
  for (const file of files) await fs.utimes(path.join(root, file), then, then);
}

type Logged = { level: 'info' | 'warn'; details: object; message: string | undefined };

function recordingLogger() {
  const logged: Logged[] = [];
  return {
    logged,
    logger: {
      info: (details: object, message?: string) => logged.push({ level: 'info', details, message }),
      warn: (details: object, message?: string) => logged.push({ level: 'warn', details, message }),
    },
  };
}

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const backends: { name: string; make(): Promise<{ storage: PhotoStorage; host: string }> }[] = [
  {
    name: 'S3 (its temporary folder)',
    async make() {
      const host = await fs.mkdtemp(path.join(dir, 's3-'));
      const storage = createS3Storage({
        bucket: server.bucket,
        endpoint: server.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: S3RVER_CREDENTIALS,
        tempDir: host,
      });
      return { storage, host };
    },
  },
  {
    name: 'local (UPLOAD_DIR)',
    async make() {
      const host = await fs.mkdtemp(path.join(dir, 'local-'));
      return { storage: createLocalStorage(host), host };
    },
  },
];

describe.each(backends)('clearing abandoned uploads on $name', ({ make }) => {
  it('removes, as it starts, an upload older than the bound and keeps one still being received', async () => {
    const { storage, host } = await make();
    const killed = await receiving(storage);
    const [left] = await filesUnder(host);
    expect(left).toMatch(/\.part$/);
    await age(host, [left!], 2);
    const fresh = await receiving(storage);
    const freshFile = (await filesUnder(host)).find((f) => f !== left)!;
    expect(freshFile).toBeDefined();

    const { logger, logged } = recordingLogger();
    const cleanup = cleanAbandonedUploads(storage, { minAgeHours: 1, everyMs: 60_000, logger });
    try {
      await eventually(async () => !(await filesUnder(host)).includes(left!), 'the old upload to go');
      expect(await filesUnder(host)).toEqual([freshFile]);
      await eventually(async () => logged.length > 0, 'the run to be logged');
      expect(logged).toEqual([
        { level: 'info', details: expect.objectContaining({ removed: 1 }), message: expect.any(String) },
      ]);
    } finally {
      await cleanup.stop();
      killed.writable.destroy();
      await fresh.discard();
      await storage.close();
    }
    expect(await filesUnder(host)).toEqual([]);
  });

  it('runs again every `everyMs`, so what is left later goes too', async () => {
    const { storage, host } = await make();
    const { logger } = recordingLogger();
    const cleanup = cleanAbandonedUploads(storage, { minAgeHours: 1, everyMs: 100, logger });
    try {
      const killed = await receiving(storage);
      const files = await filesUnder(host);
      expect(files).toHaveLength(1);
      await age(host, files, 2);
      await eventually(async () => (await filesUnder(host)).length === 0, 'the next run to remove it');
      killed.writable.destroy();
    } finally {
      await cleanup.stop();
      await storage.close();
    }
  });
});

describe('clearing abandoned uploads while the bucket is down', () => {
  it('still removes what is on the host, and logs that the bucket could not be reached instead of throwing', async () => {
    const host = await fs.mkdtemp(path.join(dir, 'down-'));
    const storage = createS3Storage({
      bucket: server.bucket,
      endpoint: server.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
      tempDir: host,
    });
    const killed = await receiving(storage);
    await age(host, await filesUnder(host), 2);
    const { logger, logged } = recordingLogger();
    let cleanup: { stop(): Promise<void> } | null = null;
    await server.stop();
    try {
      cleanup = cleanAbandonedUploads(storage, { minAgeHours: 1, everyMs: 60_000, logger });
      await eventually(async () => logged.some((l) => l.level === 'warn'), 'a warning');
      expect(logged.map((l) => l.message)).toEqual([expect.stringMatching(/could not remove uploads/)]);
      expect(await filesUnder(host)).toEqual([]);
    } finally {
      await cleanup?.stop();
      await server.start();
      killed.writable.destroy();
      await storage.close();
    }
  });
});
