// `npm run doctor` with PHOTO_STORAGE=s3 against a real S3 server. s3rver has no access control
// (it answers anyone), so its bucket is exactly what the originals check must catch; the other
// checks pass there and fail, each with its own words, for a missing bucket, wrong credentials and
// a server that is down.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Settings } from '../../../server/config.ts';
import { bucketChecks, bucketObjectUrl, type BucketCheck } from '../../../server/photos/bucket-checks.ts';
import { S3RVER_CREDENTIALS, startS3Server, type S3ServerUnderTest } from '../../helpers/s3-server.ts';

let server: S3ServerUnderTest;
let s3: S3Settings;

beforeAll(async () => {
  server = await startS3Server();
  process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
  s3 = {
    bucket: server.bucket,
    endpoint: server.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    publicUrl: null,
  };
});
afterAll(() => server?.close());

const byName = (checks: BucketCheck[]) => Object.fromEntries(checks.map((c) => [c.name, c]));

describe('the photo bucket checks', () => {
  it('find the bucket reachable and writable, and an original readable without credentials', async () => {
    const checks = byName(await bucketChecks({ ...s3, publicUrl: `${server.endpoint}/${server.bucket}` }));
    expect(checks['photo bucket']).toMatchObject({
      ok: true,
      detail: `${server.bucket} answers at ${server.endpoint}`,
    });
    expect(checks['photo bucket writes']).toMatchObject({
      ok: true,
      detail: /wrote and deleted originals\/doctor-probe-/,
    });
    expect(checks['upload temp folder']).toMatchObject({ ok: true });
    expect(checks['originals private']!.ok).toBe(false);
    expect(checks['originals private']!.detail).toContain(
      `an original is readable without credentials at ${server.endpoint}/${server.bucket}/originals/doctor-probe-`,
    );
    expect(checks['originals private']!.detail).toContain('make originals/ private');
    // The probe is gone.
    const listing = await fetch(`${server.endpoint}/${server.bucket}?list-type=2`);
    expect(await listing.text()).not.toContain('doctor-probe');
  });

  it('name a missing bucket, refused credentials and a server that does not answer', async () => {
    expect(await bucketChecks({ ...s3, bucket: 'no-such-bucket' })).toEqual([
      {
        name: 'photo bucket',
        ok: false,
        detail: `there is no bucket no-such-bucket at ${server.endpoint}: create it, or fix S3_BUCKET`,
      },
    ]);

    process.env.AWS_ACCESS_KEY_ID = 'NOT-A-KEY';
    try {
      const [denied] = await bucketChecks(s3);
      expect(denied).toMatchObject({
        ok: false,
        detail: expect.stringContaining('is denied: check AWS_ACCESS_KEY_ID'),
      });
    } finally {
      process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
    }

    await server.stop();
    try {
      const [down] = await bucketChecks(s3);
      expect(down).toMatchObject({
        ok: false,
        detail: expect.stringMatching(/^cannot reach .* Is S3_ENDPOINT right\?$/),
      });
    } finally {
      await server.start();
    }
  });

  it('address the bucket by path or by host name, or AWS without an endpoint', () => {
    const key = 'originals/x.jpg';
    expect(bucketObjectUrl({ ...s3, endpoint: 'https://minio.example:9000/' }, key)).toBe(
      `https://minio.example:9000/${server.bucket}/${key}`,
    );
    expect(bucketObjectUrl({ ...s3, endpoint: 'https://r2.example.com', forcePathStyle: false }, key)).toBe(
      `https://${server.bucket}.r2.example.com/${key}`,
    );
    expect(bucketObjectUrl({ ...s3, endpoint: null, region: 'eu-west-3' }, key)).toBe(
      `https://${server.bucket}.s3.eu-west-3.amazonaws.com/${key}`,
    );
  });

  it('are what `npm run doctor` prints with PHOTO_STORAGE=s3, in its style', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-doctor-s3-'));
    try {
      const output = await new Promise<string>((resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', 'scripts/doctor.ts'],
          {
            env: {
              ...process.env,
              ...server.env,
              NODE_ENV: 'test',
              DATABASE_URL: '',
              REDIS_URL: '',
              DATA_DIR: path.join(root, 'data'),
              UPLOAD_DIR: path.join(root, 'uploads'),
            },
            timeout: 140_000,
            killSignal: 'SIGKILL',
          },
          (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
        );
      });
      expect(output).toMatch(new RegExp(` ok  +photo bucket +${server.bucket} answers at`));
      expect(output).toMatch(/ ok  +photo bucket writes +wrote and deleted/);
      expect(output).toMatch(/FAIL +originals private +an original is readable without credentials/);
      expect(output).not.toMatch(/ uploads /);
      expect(output).not.toContain('NodeVersionSupportWarning');
      expect(output).toMatch(/\d+ problem\(s\) found\./);
      // UPLOAD_DIR is not touched with the photos in a bucket.
      await expect(fs.stat(path.join(root, 'uploads'))).rejects.toThrow();
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
    // The script starts embedded storage in a fresh directory: slow on a busy machine.
  }, 150_000);
});
