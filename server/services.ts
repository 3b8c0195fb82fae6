// The shared services every process builds once: storage, event store, queue, logger.
import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';
import { configuredStorage, openDatabase, type Database } from './db/database.ts';
import { migrateAndSeal } from './events/migrate.ts';
import { useDataKey } from './events/personal.ts';
import { createEventStore, type EventStore } from './events/store.ts';
import { createBullQueue } from './queue/bullmq.ts';
import { createInlineQueue } from './queue/inline.ts';
import type { JobQueue } from './queue/queue.ts';
import { projections } from './domains.ts';
import type { Projection } from './events/projection.ts';
import { createLocalStorage } from './photos/local-storage.ts';
import { createS3Storage } from './photos/s3-storage.ts';
import type { PhotoStorage } from './photos/storage.ts';
import { usePhotoBaseUrl } from './photos/urls.ts';

export type Services = {
  config: Config;
  database: Database;
  store: EventStore;
  queue: JobQueue;
  logger: Logger;
  /** Photo originals and variants: on the disk under UPLOAD_DIR, or in a bucket (PHOTO_STORAGE). */
  photoStorage: PhotoStorage;
};

export type ServiceOptions = {
  /** An already-open database (tests share one per file). */
  database?: Database;
  queue?: JobQueue;
  logger?: Logger;
  migrate?: boolean;
  queuePrefix?: string;
  /** The projections appends run inline (all of them unless a deployment is being rehearsed). */
  projections?: readonly Projection[];
  /**
   * Bound every statement by STATEMENT_TIMEOUT_MS (default true). A worker process passes false:
   * its batches are not requests anyone waits on, and a cut-short batch would only be retried.
   */
  boundStatements?: boolean;
};

/** The process's logger, on stdout; on stderr for a command whose stdout is its result. */
export function createLogger(config: Config, to: 'stdout' | 'stderr' = 'stdout'): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', '*.password', '*.password_hash'], censor: '[redacted]' },
    },
    pino.destination(to === 'stderr' ? 2 : 1),
  );
}

/** The configured photo storage; the photos' URLs point at S3_PUBLIC_URL when it is set. */
export function configuredPhotoStorage(config: Config): PhotoStorage {
  if (config.photoStorage === 'local' || !config.s3) {
    usePhotoBaseUrl(null);
    return createLocalStorage(config.uploadDir);
  }
  usePhotoBaseUrl(config.s3.publicUrl);
  return createS3Storage(config.s3);
}

export async function createServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const logger = options.logger ?? createLogger(config);
  useDataKey(config.dataKey);
  const database =
    options.database ??
    (await openDatabase({
      ...configuredStorage(config),
      statementTimeoutMs: options.boundStatements === false ? null : config.statementTimeoutMs || null,
      logger,
    }));
  if (options.migrate !== false) {
    try {
      const applied = await migrateAndSeal(database.db);
      if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    } catch (error) {
      // Opened here, so closed here: a caller that tries again must not leak a pool per try.
      if (!options.database) await database.close().catch(() => {});
      throw error;
    }
  }
  const queue =
    options.queue ??
    (config.redisUrl
      ? createBullQueue({
          url: config.redisUrl,
          prefix: options.queuePrefix,
          onError: (error) => logger.warn({ err: error }, 'redis error'),
          onFailed: (queueName, jobId, error) =>
            logger.error({ err: error, queue: queueName, jobId }, 'job failed'),
        })
      : createInlineQueue(database, {
          onFailed: (job, error) =>
            logger.error({ err: error, queue: job.queue, jobId: job.id }, 'job failed'),
          onError: (error) => logger.warn({ err: error }, 'job runner could not reach the database'),
        }));
  return {
    config,
    database,
    store: createEventStore(options.projections ?? projections),
    queue,
    logger,
    photoStorage: configuredPhotoStorage(config),
  };
}

export async function closeServices(services: Services): Promise<void> {
  await services.queue.close();
  await services.database.close();
  await services.photoStorage.close();
}
