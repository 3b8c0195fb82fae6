// `npm run storage -- migrate --to s3`: copies every photo object of UPLOAD_DIR (originals still
// waiting for their job, and every variant) into the bucket of the S3_* settings, under the same
// keys and with the headers the S3 storage writes. An object already in the bucket with the same
// size is skipped, so a run that is stopped (or killed) is resumed by running it again, and a run
// after switching to PHOTO_STORAGE=s3 copies what was uploaded in between. It only reads
// UPLOAD_DIR: the app keeps serving from it meanwhile. A progress bar on a terminal, lines otherwise.
import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { Config } from '../server/config.ts';

const [command, flag, target, ...rest] = process.argv.slice(2);
if (command !== 'migrate' || flag !== '--to' || target !== 's3' || rest.length > 0) {
  console.error('Usage: npm run storage -- migrate --to s3');
  process.exit(2);
}

// Loaded once the arguments are known to be good, so a mistyped command answers at once.
const [{ ConfigError, loadConfig }, { createLocalStorage }, { createS3Client, headersOf }] =
  await Promise.all([
    import('../server/config.ts'),
    import('../server/photos/local-storage.ts'),
    import('../server/photos/s3-storage.ts'),
  ]);

/** Copies at once: enough to keep a remote store busy, few enough to leave the app its disk. */
const CONCURRENCY = 4;
/** Without a terminal, a line every this many objects. */
const LINE_EVERY = 50;

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
const s3 = config.s3;
if (!s3) {
  console.error('Set S3_BUCKET (and S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE as needed) to copy into.');
  process.exit(1);
}

const local = createLocalStorage(config.uploadDir);
const client: S3Client = createS3Client(s3);

/** The size of the bucket's object at `key`, or null when there is none. */
async function sizeInBucket(key: string): Promise<number | null> {
  try {
    const head = await client.send(new HeadObjectCommand({ Bucket: s3!.bucket, Key: key }));
    return head.ContentLength ?? null;
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
    throw error;
  }
}

/** Copies one object unless the bucket has it already; answers whether it copied. */
async function copy(key: string): Promise<boolean> {
  const object = await local.open(key);
  // Gone since it was listed (its photo deleted, its original processed): nothing to copy.
  if (!object) return false;
  const body: Readable = object.body;
  try {
    if ((await sizeInBucket(key)) === object.size) return false;
    // One request, whole or not at all: a run killed part way leaves no partial object.
    await client.send(
      new PutObjectCommand({
        Bucket: s3!.bucket,
        Key: key,
        Body: body,
        ContentLength: object.size,
        ...headersOf(key),
      }),
    );
    return true;
  } finally {
    body.destroy();
  }
}

const tty = process.stdout.isTTY === true;
const counts = { copied: 0, skipped: 0 };
let total = 0;

function progress(final = false): void {
  const done = counts.copied + counts.skipped;
  const line = `${done} of ${total} objects (${counts.copied} copied, ${counts.skipped} already there)`;
  if (tty) {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    process.stdout.write(
      `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${line}${final ? '\n' : ''}`,
    );
  } else if (final || done % LINE_EVERY === 0) console.log(line);
}

const started = Date.now();
const keys: string[] = [];
for await (const key of local.list({ olderThan: new Date(8.64e15) })) keys.push(key);
total = keys.length;
const where = `${s3.bucket}${s3.endpoint ? ` at ${s3.endpoint}` : ''}`;
console.log(`Copying ${total} photo objects from ${config.uploadDir} into ${where}.`);

let next = 0;
let failed: unknown = null;
async function worker(): Promise<void> {
  while (next < keys.length && !failed) {
    const key = keys[next++]!;
    try {
      if (await copy(key)) counts.copied += 1;
      else counts.skipped += 1;
    } catch (error) {
      failed ??= error;
      console.error(`${tty ? '\n' : ''}Could not copy ${key}: ${(error as Error).message}`);
      return;
    }
    progress();
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
client.destroy();
if (failed) {
  console.error('Stopped. Run the same command again to go on from where it stopped.');
  process.exit(1);
}
progress(true);
console.log(
  `Done in ${((Date.now() - started) / 1000).toFixed(1)} s. With PHOTO_STORAGE=s3 set and the api and ` +
    'workers restarted, run it once more: it copies what was uploaded in between.',
);
