// The PhotoStorage in an S3-compatible bucket (PHOTO_STORAGE=s3): each object is the bucket's
// object at its key (originals/<name>.<ext>, cats/<name>_large.webp, ...), so no api or worker
// process needs a disk another can see. Originals are written private; variants carry the headers
// they are served with, so a CDN or the bucket's own address (S3_PUBLIC_URL) can serve them as is.
//
// An upload being received goes to a file in this host's temporary directory as it arrives (no
// photo is held in memory), and once all of it has arrived it is sent to the bucket under
// incoming/<random>; keeping it is then a copy inside the bucket, quick enough for the upload's
// transaction. The temporary file goes as soon as the upload ends, however it ends.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type PutObjectCommandInput,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { VARIANT_CACHE_CONTROL, variantKeyFor } from './serve.ts';
import {
  InvalidObjectKey,
  isObjectKey,
  PhotoStorageUnavailable,
  type ObjectKey,
  type PhotoStorage,
  type StagedObject,
  type StoredObject,
} from './storage.ts';

export type S3StorageOptions = {
  bucket: string;
  /** The store's address (`https://...`); unset, AWS S3 itself. */
  endpoint?: string | null;
  region: string;
  /** Address the bucket in the path (`<endpoint>/<bucket>/<key>`), as most other stores want. */
  forcePathStyle?: boolean;
  /** Unset, the SDK's own chain: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, a profile, a role. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Where uploads wait while they arrive (default: a folder in the system's temporary directory). */
  tempDir?: string;
  /** How long one request to the store may take before it counts as failed (default 30 s). */
  requestTimeoutMs?: number;
};

/** Where received uploads wait in the bucket until they are kept or discarded; no key names one. */
const INCOMING = 'incoming';

/**
 * The default temporary folder, shared by the app's processes on a host (see removeAbandoned): in
 * the system's (TMPDIR on Unix), as it is when the storage is made.
 */
export function defaultTempDir(): string {
  return path.join(os.tmpdir(), 'bodega-cats-uploads');
}

const CONTENT_TYPES: Record<string, string> = {
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
};

/** The headers an object is stored with: the variants' long cache life, nothing cached otherwise. */
export function headersOf(key: ObjectKey): Pick<PutObjectCommandInput, 'ContentType' | 'CacheControl'> {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return {
    ContentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
    // Variant keys are derived from a photo's random name and never reused (objects.ts).
    CacheControl: variantKeyFor(key) === key ? VARIANT_CACHE_CONTROL : 'private, no-store',
  };
}

/** Errors of a store that cannot be reached or says it is failing, as opposed to a refusal. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

function isUnreachable(error: unknown): boolean {
  const e = error as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code && NETWORK_CODES.has(e.code)) return true;
  if (e.name === 'TimeoutError' || e.name === 'RequestTimeout') return true;
  const status = e.$metadata?.httpStatusCode;
  return status !== undefined && status >= 500;
}

/** The store's error, or PhotoStorageUnavailable for one that says the store is out of reach. */
function storageError(error: unknown): unknown {
  return isUnreachable(error) ? new PhotoStorageUnavailable(error) : error;
}

function isNoSuchKey(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** A client of the store as the app uses it (the storage, `npm run doctor`, `npm run storage`). */
export function createS3Client(
  options: Pick<
    S3StorageOptions,
    'endpoint' | 'region' | 'forcePathStyle' | 'credentials' | 'requestTimeoutMs'
  >,
): S3Client {
  // The SDK's documented opt-out of its notice that later versions will need a newer Node: it is
  // printed on every start otherwise, and says nothing an operator can act on here.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle ?? false,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // Checksums only where S3 requires them: other S3-compatible stores reject the newer ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 5000, requestTimeout: options.requestTimeoutMs ?? 30_000 },
    // The SDK's own notes (such as a retry it will not make) stay out of the app's output: every
    // failure reaches the caller as an error, which says more.
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
}

export function createS3Storage(options: S3StorageOptions): PhotoStorage {
  const { bucket } = options;
  const tempDir = options.tempDir ?? defaultTempDir();
  const client = createS3Client(options);

  async function send<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw storageError(error);
    }
  }

  function keyOf(key: string): ObjectKey {
    if (!isObjectKey(key) || key.startsWith(`${INCOMING}/`)) throw new InvalidObjectKey(key);
    return key;
  }

  async function getObject(key: ObjectKey) {
    try {
      return await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    } catch (error) {
      if (isNoSuchKey(error)) return null;
      throw storageError(error);
    }
  }

  async function deleteObject(key: string): Promise<void> {
    await send(() => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })));
  }

  /** Every object under `prefix` after `after`, with its time, in the bucket's (byte) order. */
  async function* listAll(prefix: string, after: string | undefined) {
    let token: string | undefined;
    do {
      const page = await send(() =>
        client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix || undefined,
            StartAfter: token ? undefined : after || undefined,
            ContinuationToken: token,
          }),
        ),
      );
      for (const object of page.Contents ?? [])
        if (object.Key && object.LastModified) yield { key: object.Key, modifiedAt: object.LastModified };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async function stage(): Promise<StagedObject> {
    await fs.mkdir(tempDir, { recursive: true });
    const name = randomBytes(16).toString('hex');
    const file = path.join(tempDir, `${name}.part`);
    const stagedKey = `${INCOMING}/${name}`;
    // Opened before any byte is read: a body that breaks off then finds the file there to remove.
    const onDisk = (await fs.open(file, 'wx')).createWriteStream();
    // Its errors reach the writes' callbacks and `finished`; one after a destroy concerns nobody.
    onDisk.on('error', () => {});
    const sending = new AbortController();
    let size = 0;
    /** Whether a request to store the bytes in the bucket went out (they may be there). */
    let sent = false;
    let settled: 'kept' | 'discarded' | null = null;
    const removeFile = () => fs.rm(file, { force: true });

    const writable = new Writable({
      write(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        onDisk.write(chunk, (error) => done(error ?? null));
      },
      // All of it has arrived: it goes to the bucket before the pipeline writing it completes.
      final(done) {
        void (async () => {
          let failure: Error | null = null;
          const body = createReadStream(file);
          try {
            onDisk.end();
            await finished(onDisk);
            sent = true;
            await send(() =>
              client.send(
                new PutObjectCommand({
                  Bucket: bucket,
                  Key: stagedKey,
                  Body: body,
                  ContentLength: size,
                  CacheControl: 'private, no-store',
                }),
                { abortSignal: sending.signal },
              ),
            );
          } catch (error) {
            failure = error as Error;
          }
          body.destroy();
          await removeFile();
          done(failure);
        })();
      },
      destroy(error, done) {
        onDisk.destroy();
        removeFile().then(
          () => done(error),
          () => done(error),
        );
      },
    });

    return {
      writable,
      async keep(key) {
        if (!writable.writableFinished || settled)
          throw new Error('a staged object is kept only once all of it is written');
        const target = keyOf(key);
        await send(() =>
          client.send(
            new CopyObjectCommand({
              Bucket: bucket,
              Key: target,
              CopySource: `${bucket}/${stagedKey}`,
              MetadataDirective: 'REPLACE',
              ...headersOf(target),
            }),
          ),
        );
        settled = 'kept';
        // Kept whole already; should this fail, removeAbandoned takes the staged copy later.
        await deleteObject(stagedKey).catch(() => {});
      },
      async discard() {
        if (settled) return;
        settled = 'discarded';
        sending.abort();
        writable.destroy();
        await removeFile();
        if (sent) await deleteObject(stagedKey);
      },
    };
  }

  return {
    stage,

    /**
     * One request for bytes; a stream goes up in parts as it is read, and a body that fails part
     * way stores nothing (the upload is aborted, its parts dropped).
     */
    async put(key, body) {
      const target = keyOf(key);
      if (Buffer.isBuffer(body)) {
        await send(() =>
          client.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: target,
              Body: body,
              ContentLength: body.length,
              ...headersOf(target),
            }),
          ),
        );
        return;
      }
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: target, Body: body as Readable, ...headersOf(target) },
        queueSize: 1,
        leavePartsOnError: false,
      });
      // A body that fails has its error, not the upload's: it says why nothing was stored.
      let bodyError: unknown = null;
      (body as Readable).once('error', (error) => (bodyError = error));
      try {
        await upload.done();
      } catch (error) {
        throw bodyError ?? storageError(error);
      }
    },

    async get(key) {
      const object = await getObject(keyOf(key));
      if (!object?.Body) return null;
      return Buffer.from(await send(() => object.Body!.transformToByteArray()));
    },

    async open(key): Promise<StoredObject | null> {
      const object = await getObject(keyOf(key));
      if (!object?.Body) return null;
      return {
        body: object.Body as Readable,
        size: object.ContentLength ?? 0,
        modifiedAt: object.LastModified ?? new Date(0),
      };
    },

    async delete(key) {
      await deleteObject(keyOf(key));
    },

    async *list({ prefix = '', olderThan, after }) {
      for await (const object of listAll(prefix, after)) {
        if (object.key.startsWith(`${INCOMING}/`) || !isObjectKey(object.key)) continue;
        if (object.modifiedAt < olderThan) yield object.key;
      }
    },

    /**
     * Staged objects in incoming/ and temporary files in this host's folder that a stopped process
     * left. (A stream put cut off by a stopped process leaves an unfinished multipart upload, which
     * the bucket's own lifecycle rule removes; see the README.)
     */
    async removeAbandoned({ olderThan, limit }) {
      let removed = 0;
      for (const name of await fs.readdir(tempDir).catch(() => [])) {
        if (removed >= limit) return removed;
        const file = path.join(tempDir, name);
        const stat = await fs.stat(file).catch(() => null);
        if (!stat?.isFile() || !name.endsWith('.part') || stat.mtime >= olderThan) continue;
        await fs.rm(file, { force: true });
        removed += 1;
      }
      for await (const object of listAll(`${INCOMING}/`, undefined)) {
        if (removed >= limit) return removed;
        if (object.modifiedAt >= olderThan) continue;
        await deleteObject(object.key);
        removed += 1;
      }
      return removed;
    },

    async close() {
      client.destroy();
    },
  };
}
