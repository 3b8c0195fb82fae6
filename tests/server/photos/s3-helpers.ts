// An app whose photos are in a bucket of a private S3 server (PHOTO_STORAGE=s3), with what the
// S3 tests look at: the bucket's keys (staged ones included), this host's temporary upload folder
// and its upload directory, neither of which should keep a file.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { createS3Client, defaultTempDir } from '../../../server/photos/s3-storage.ts';
import type { Config } from '../../../server/config.ts';
import { S3RVER_CREDENTIALS, startS3Server, type S3ServerUnderTest } from '../../helpers/s3-server.ts';
import { createPhotoTestApp, filesUnder, type PhotoTestApp } from './helpers.ts';

export type S3PhotoTestApp = PhotoTestApp & {
  s3: S3ServerUnderTest;
  /** Where this app's uploads wait while they arrive. */
  tempDir: string;
  /** Every key in the bucket, in order, staged ones (incoming/) included. */
  bucketKeys(prefix?: string): Promise<string[]>;
  /** Files on this host the app's photos left: in the upload directory and the temporary folder. */
  filesOnDisk(): Promise<string[]>;
};

/**
 * The app on a fresh S3 server. The temporary folder is the system's (TMPDIR), here one of this
 * test file's own, so what an upload leaves there is this app's alone.
 */
export async function createS3PhotoTestApp(
  options: { worker?: boolean; publicUrl?: (s3: S3ServerUnderTest) => string; config?: Partial<Config> } = {},
): Promise<S3PhotoTestApp> {
  const s3 = await startS3Server();
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-s3-app-'));
  const systemTmp = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  // The SDK reads its credentials from the environment, as in production.
  process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
  const tempDir = defaultTempDir();
  const t = await createPhotoTestApp({
    worker: options.worker,
    config: {
      photoStorage: 's3',
      s3: {
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        publicUrl: options.publicUrl?.(s3) ?? null,
      },
      ...options.config,
    },
  });
  const admin: S3Client = createS3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
  return {
    ...t,
    s3,
    tempDir,
    async bucketKeys(prefix) {
      const page = await admin.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
      return (page.Contents ?? []).map((o) => o.Key!).sort();
    },
    async filesOnDisk() {
      return [...(await filesUnder(t.uploadDir)), ...(await filesUnder(tempDir))];
    },
    async close() {
      await t.close();
      admin.destroy();
      await s3.close();
      if (systemTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = systemTmp;
      await fs.rm(tmp, { recursive: true, force: true });
    },
  };
}
