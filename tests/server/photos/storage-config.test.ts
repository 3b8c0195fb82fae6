// PHOTO_STORAGE, the S3_* settings and ORPHAN_MIN_AGE_HOURS: their defaults, what a bad value is
// told, and the backend the services build from them.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type Config } from '../../../server/config.ts';
import { configuredPhotoStorage } from '../../../server/services.ts';
import { startS3Server, type S3ServerUnderTest } from '../../helpers/s3-server.ts';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig({ NODE_ENV: 'test', ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('photo storage settings', () => {
  it('keep photos under UPLOAD_DIR by default, embedded or not', () => {
    for (const env of [{}, { DATABASE_URL: 'postgres://app@db/bodega' }]) {
      const config = loadConfig({ NODE_ENV: 'test', ...env });
      expect(config.photoStorage).toBe('local');
      expect(config.s3).toBeNull();
    }
  });

  it('read the bucket, with us-east-1, virtual-hosted addressing and no public URL by default', () => {
    const config = loadConfig({ NODE_ENV: 'test', PHOTO_STORAGE: 's3', S3_BUCKET: 'bodega-photos' });
    expect(config.photoStorage).toBe('s3');
    expect(config.s3).toEqual({
      bucket: 'bodega-photos',
      endpoint: null,
      region: 'us-east-1',
      forcePathStyle: false,
      publicUrl: null,
    });
  });

  it('read every S3 setting, the public URL without its trailing slash', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      PHOTO_STORAGE: 'S3',
      S3_BUCKET: 'photos.example',
      S3_ENDPOINT: 'https://minio.internal:9000',
      S3_REGION: 'eu-west-3',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PUBLIC_URL: 'https://cdn.example.com/photos/',
    });
    expect(config.s3).toEqual({
      bucket: 'photos.example',
      endpoint: 'https://minio.internal:9000',
      region: 'eu-west-3',
      forcePathStyle: true,
      publicUrl: 'https://cdn.example.com/photos',
    });
  });

  it('keep the bucket settings beside local storage, for copying photos into the bucket', () => {
    const config = loadConfig({ NODE_ENV: 'test', S3_BUCKET: 'bodega-photos' });
    expect(config.photoStorage).toBe('local');
    expect(config.s3?.bucket).toBe('bodega-photos');
  });

  it('remove orphaned objects a day old by default, or after ORPHAN_MIN_AGE_HOURS, fractions allowed', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).orphanMinAgeHours).toBe(24);
    expect(loadConfig({ NODE_ENV: 'test', ORPHAN_MIN_AGE_HOURS: '0.5' }).orphanMinAgeHours).toBe(0.5);
    expect(problemsOf({ ORPHAN_MIN_AGE_HOURS: '0' })).toEqual([
      'ORPHAN_MIN_AGE_HOURS must be a positive number of hours (got "0")',
    ]);
    expect(problemsOf({ ORPHAN_MIN_AGE_HOURS: 'a day' })).toEqual([
      'ORPHAN_MIN_AGE_HOURS must be a positive number of hours (got "a day")',
    ]);
  });

  it('need a bucket for s3', () => {
    expect(problemsOf({ PHOTO_STORAGE: 's3' })).toEqual(['S3_BUCKET is required when PHOTO_STORAGE=s3']);
  });

  it('name each bad value', () => {
    expect(problemsOf({ PHOTO_STORAGE: 'disk' })).toEqual(['PHOTO_STORAGE must be local or s3 (got "disk")']);
    const problems = problemsOf({
      PHOTO_STORAGE: 's3',
      S3_BUCKET: 'Bodega_Photos',
      S3_ENDPOINT: 'minio:9000',
      S3_REGION: 'US East',
      S3_FORCE_PATH_STYLE: 'yes',
      S3_PUBLIC_URL: 'ftp://cdn.example.com',
    });
    expect(problems).toEqual([
      'S3_BUCKET must be a bucket name: 3 to 63 lowercase letters, digits, dots or hyphens (got "Bodega_Photos")',
      'S3_REGION must be a region name such as us-east-1 (got "US East")',
      'S3_FORCE_PATH_STYLE must be true or false (got "yes")',
      'S3_PUBLIC_URL must start with http: or https://',
      'S3_ENDPOINT must start with http: or https://',
    ]);
    expect(problemsOf({ S3_BUCKET: 'ab' })[0]).toMatch(/S3_BUCKET must be a bucket name/);
    expect(problemsOf({ S3_BUCKET: 'photos', S3_PUBLIC_URL: 'https://cdn.example.com/?v=1' })).toEqual([
      'S3_PUBLIC_URL must not have a query (?) or a fragment (#)',
    ]);
    expect(problemsOf({ S3_BUCKET: 'photos', S3_PUBLIC_URL: 'cdn.example.com' })).toEqual([
      'S3_PUBLIC_URL is not a valid URL',
    ]);
  });
});

describe('the configured photo storage', () => {
  let server: S3ServerUnderTest;
  let uploadDir: string;

  beforeAll(async () => {
    server = await startS3Server();
    uploadDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-storage-config-'));
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: server.env.AWS_ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: server.env.AWS_SECRET_ACCESS_KEY,
    });
  });

  afterAll(async () => {
    await server?.close();
    await fs.rm(uploadDir, { recursive: true, force: true });
  });

  function configOf(env: NodeJS.ProcessEnv): Config {
    return loadConfig({ NODE_ENV: 'test', UPLOAD_DIR: uploadDir, ...env });
  }

  it('is the upload directory with PHOTO_STORAGE=local, even with a bucket configured', async () => {
    const storage = configuredPhotoStorage(configOf({ ...server.env, PHOTO_STORAGE: 'local' }));
    try {
      await storage.put('cats/l1_thumb.webp', Buffer.from('on disk'));
      expect(await fs.readFile(path.join(uploadDir, 'cats', 'l1_thumb.webp'), 'utf8')).toBe('on disk');
    } finally {
      await storage.close();
    }
  });

  it('is the bucket with PHOTO_STORAGE=s3, credentials read by the SDK from AWS_* variables', async () => {
    const storage = configuredPhotoStorage(configOf(server.env));
    try {
      await storage.put('cats/s1_thumb.webp', Buffer.from('in the bucket'));
      const file = await fs.readdir(path.join(uploadDir, 'cats')).catch(() => []);
      expect(file).not.toContain('s1_thumb.webp');
      const res = await fetch(`${server.endpoint}/${server.bucket}/cats/s1_thumb.webp`);
      expect(await res.text()).toBe('in the bucket');
    } finally {
      await storage.close();
    }
  });
});
