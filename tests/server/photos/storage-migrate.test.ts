// `npm run storage -- migrate --to s3` against a real S3 server: killed part way and run again, it
// leaves every object of UPLOAD_DIR in the bucket, byte for byte, having copied each once (what the
// killed run copied is skipped, an object of another size is replaced); a third run copies nothing.
// Uploads still arriving (incoming/) and unfinished writes are not objects and stay behind; the
// upload directory itself is only read.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client } from '../../../server/photos/s3-storage.ts';
import { S3RVER_CREDENTIALS, startS3Server, type S3ServerUnderTest } from '../../helpers/s3-server.ts';
import { filesUnder } from './helpers.ts';

const COUNT = 300;

let server: S3ServerUnderTest;
let admin: S3Client;
let root: string;
let uploadDir: string;
let env: NodeJS.ProcessEnv;
/** Every object of the upload directory, by key. */
const objects = new Map<string, Buffer>();

beforeAll(async () => {
  server = await startS3Server();
  admin = createS3Client({
    endpoint: server.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-migrate-'));
  uploadDir = path.join(root, 'uploads');
  for (let i = 0; i < COUNT; i++) {
    const name = randomBytes(16).toString('hex');
    const key =
      i % 3 === 0 ? `originals/${name}.jpg` : `${i % 3 === 1 ? 'cats' : 'bodegas'}/${name}_thumb.webp`;
    objects.set(key, randomBytes(8000 + i));
  }
  for (const [key, bytes] of objects) {
    await fs.mkdir(path.dirname(path.join(uploadDir, key)), { recursive: true });
    await fs.writeFile(path.join(uploadDir, key), bytes);
  }
  // Not objects: an upload still arriving and a put's unfinished write.
  await fs.mkdir(path.join(uploadDir, 'incoming'), { recursive: true });
  await fs.writeFile(path.join(uploadDir, 'incoming', 'a1b2.part'), 'arriving');
  await fs.writeFile(path.join(uploadDir, 'cats', 'x_thumb.webp.0123456789ab.tmp'), 'half');
  env = {
    ...process.env,
    ...server.env,
    PHOTO_STORAGE: 'local',
    NODE_ENV: 'test',
    UPLOAD_DIR: uploadDir,
    DATA_DIR: path.join(root, 'data'),
  };
});

afterAll(async () => {
  admin?.destroy();
  await server?.close();
  await fs.rm(root, { recursive: true, force: true });
});

const ARGS = ['--import', 'tsx', 'scripts/storage.ts'];

function run(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...ARGS, ...args],
      { env, timeout: 120_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** Runs the migration and kills it at its first progress line. */
function runAndKill(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...ARGS, 'migrate', '--to', 's3'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (d) => {
      output += d;
      if (/\d+ of \d+ objects/.test(output)) child.kill('SIGKILL');
    });
    child.stderr.on('data', (d) => (output += d));
    child.once('error', reject);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(output);
    });
  });
}

/** The bucket's keys and sizes. */
async function inBucket(): Promise<Map<string, number>> {
  const page = await admin.send(new ListObjectsV2Command({ Bucket: server.bucket }));
  return new Map((page.Contents ?? []).map((o) => [o.Key!, o.Size!]));
}

describe('npm run storage -- migrate --to s3', () => {
  it('refuses anything else with its usage', async () => {
    const res = await run(['migrate', '--to', 'disk']);
    expect(res.code).toBe(2);
    expect(res.output).toContain('Usage: npm run storage -- migrate --to s3');
  });

  it('resumes after a kill, copying each object once, and a run after that copies nothing', async () => {
    const keys = [...objects.keys()];
    // One object there already as it is, one of another size (a copy cut short by an older tool).
    await admin.send(
      new PutObjectCommand({ Bucket: server.bucket, Key: keys[0], Body: objects.get(keys[0]!) }),
    );
    await admin.send(
      new PutObjectCommand({ Bucket: server.bucket, Key: keys[1], Body: Buffer.from('short') }),
    );
    const before = await filesUnder(uploadDir);

    const killed = await runAndKill();
    expect(killed).toContain(`Copying ${COUNT} photo objects from ${uploadDir} into ${server.bucket} at`);
    const afterKill = await inBucket();
    const alreadyThere = keys.filter((key) => afterKill.get(key) === objects.get(key)!.length).length;
    expect(alreadyThere).toBeGreaterThan(1);
    expect(alreadyThere).toBeLessThan(COUNT);

    const resumed = await run(['migrate', '--to', 's3']);
    expect(resumed.code).toBe(0);
    expect(resumed.output).toContain(
      `${COUNT} of ${COUNT} objects (${COUNT - alreadyThere} copied, ${alreadyThere} already there)`,
    );
    expect(resumed.output).toMatch(/Done in [\d.]+ s\./);

    const bucket = await inBucket();
    expect([...bucket.keys()].sort()).toEqual([...keys].sort());
    for (const key of keys.filter((_, i) => i % 10 === 0 || i === 1)) {
      const object = await admin.send(new GetObjectCommand({ Bucket: server.bucket, Key: key }));
      expect(Buffer.from(await object.Body!.transformToByteArray()), key).toEqual(objects.get(key));
      // The one found there already was left as it was.
      if (key === keys[0]) continue;
      if (key.startsWith('originals/')) expect(object.CacheControl).toBe('private, no-store');
      else expect(object.CacheControl).toBe('public, max-age=31536000, immutable');
    }
    for (const [key, size] of bucket) expect(size, key).toBe(objects.get(key)!.length);

    const again = await run(['migrate', '--to', 's3']);
    expect(again.output).toContain(`${COUNT} of ${COUNT} objects (0 copied, ${COUNT} already there)`);
    // The upload directory was only read.
    expect(await filesUnder(uploadDir)).toEqual(before);
    // Three runs of the script, each starting tsx: slow on a busy machine.
  }, 180_000);

  it('says what to set when there is no bucket to copy into', async () => {
    const res = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [...ARGS, 'migrate', '--to', 's3'],
        { env: { ...env, S3_BUCKET: '' }, timeout: 60_000 },
        (error, stdout, stderr) =>
          resolve({ code: typeof error?.code === 'number' ? error.code : 0, output: `${stdout}${stderr}` }),
      );
    });
    expect(res.code).toBe(1);
    expect(res.output).toContain('Set S3_BUCKET');
  });
});
