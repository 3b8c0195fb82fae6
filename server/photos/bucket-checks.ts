// The photo bucket's part of `npm run doctor` with PHOTO_STORAGE=s3: the bucket answers with these
// credentials, takes a write and a delete, and does not hand an original to anyone who asks
// without credentials, at the bucket's own address or at S3_PUBLIC_URL; and the folder uploads wait
// in while they arrive is writable.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DeleteObjectCommand, HeadBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../config.ts';
import { createS3Client, defaultTempDir } from './s3-storage.ts';

export type BucketCheck = { name: string; ok: boolean; detail: string };

/** Where an object of the bucket is fetched without credentials, as a browser would. */
export function bucketObjectUrl(s3: S3Settings, key: string): string {
  if (!s3.endpoint) return `https://${s3.bucket}.s3.${s3.region}.amazonaws.com/${key}`;
  const endpoint = new URL(s3.endpoint);
  const base = endpoint.pathname.replace(/\/+$/, '');
  if (s3.forcePathStyle) return `${endpoint.origin}${base}/${s3.bucket}/${key}`;
  return `${endpoint.protocol}//${s3.bucket}.${endpoint.host}${base}/${key}`;
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}

function reason(error: unknown): string {
  const e = error as { name?: string; message?: string } | null;
  return e?.message || e?.name || String(error);
}

async function reachable(client: S3Client, s3: S3Settings): Promise<BucketCheck> {
  const where = s3.endpoint ?? `AWS S3 (${s3.region})`;
  try {
    await client.send(new HeadBucketCommand({ Bucket: s3.bucket }));
    return { name: 'photo bucket', ok: true, detail: `${s3.bucket} answers at ${where}` };
  } catch (error) {
    const status = statusOf(error);
    const detail =
      status === 404
        ? `there is no bucket ${s3.bucket} at ${where}: create it, or fix S3_BUCKET`
        : status === 403 || status === 401
          ? `access to ${s3.bucket} at ${where} is denied: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY ` +
            '(or the role) and the bucket policy'
          : `cannot reach ${s3.bucket} at ${where}: ${reason(error)}. Is S3_ENDPOINT right?`;
    return { name: 'photo bucket', ok: false, detail };
  }
}

/** An anonymous GET of `url`: readable (2xx), refused (its status), or not answered. */
async function readableWithoutCredentials(url: string): Promise<boolean | string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'follow' });
    await res.body?.cancel();
    return res.ok ? true : `answers ${res.status}`;
  } catch (error) {
    return `no answer (${reason(error)})`;
  }
}

export async function bucketChecks(s3: S3Settings): Promise<BucketCheck[]> {
  const checks: BucketCheck[] = [];
  const client = createS3Client({ ...s3, requestTimeoutMs: 10_000 });
  try {
    const bucket = await reachable(client, s3);
    checks.push(bucket);
    if (!bucket.ok) return checks;

    // An original's place: what an anonymous reader gets of it is what it would get of a photo's.
    const probe = `originals/doctor-probe-${process.pid}-${randomBytes(4).toString('hex')}.txt`;
    try {
      await client.send(
        new PutObjectCommand({
          Bucket: s3.bucket,
          Key: probe,
          Body: 'doctor',
          CacheControl: 'private, no-store',
        }),
      );
    } catch (error) {
      checks.push({
        name: 'photo bucket writes',
        ok: false,
        detail: `cannot write ${probe}: ${reason(error)}`,
      });
      return checks;
    }
    try {
      const urls = [bucketObjectUrl(s3, probe), ...(s3.publicUrl ? [`${s3.publicUrl}/${probe}`] : [])];
      const readable: string[] = [];
      const refused: string[] = [];
      for (const url of urls) {
        const answer = await readableWithoutCredentials(url);
        if (answer === true) readable.push(url);
        else refused.push(`${url} ${answer}`);
      }
      checks.push(
        readable.length > 0
          ? {
              name: 'originals private',
              ok: false,
              detail:
                `an original is readable without credentials at ${readable.join(' and ')}: make originals/ ` +
                'private (only cats/ and bodegas/ may be public), as originals may carry GPS positions',
            }
          : {
              name: 'originals private',
              ok: true,
              detail: `not readable without credentials: ${refused.join('; ')}`,
            },
      );
    } finally {
      try {
        await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: probe }));
        checks.push({ name: 'photo bucket writes', ok: true, detail: `wrote and deleted ${probe}` });
      } catch (error) {
        checks.push({
          name: 'photo bucket writes',
          ok: false,
          detail: `wrote ${probe} but cannot delete it: ${reason(error)}; photo deletions need DeleteObject`,
        });
      }
    }

    const tempDir = defaultTempDir();
    try {
      await fs.mkdir(tempDir, { recursive: true });
      const file = path.join(tempDir, `doctor-${process.pid}.probe`);
      await fs.writeFile(file, 'ok');
      await fs.rm(file);
      checks.push({ name: 'upload temp folder', ok: true, detail: `${tempDir} is writable` });
    } catch (error) {
      checks.push({
        name: 'upload temp folder',
        ok: false,
        detail: `${tempDir} is not writable (uploads wait there while they arrive): ${reason(error)}; set TMPDIR`,
      });
    }
    return checks;
  } finally {
    client.destroy();
  }
}
