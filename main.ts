// Process entry: `api`, `worker`, or `all` (api + worker in one process: embedded mode).
import type { AddressInfo } from 'node:net';
import { buildApp } from './server/app.ts';
import { ConfigError, loadConfig, type Config } from './server/config.ts';
import { isDependencyDown } from './server/dependency-errors.ts';
import { backoffMs } from './server/queue/jobs.ts';
import { DataDirectoryLockedError } from './server/db/data-lock.ts';
import { checkLogIncarnation, restoredLogMessage } from './server/events/incarnation.ts';
import { closeServices, createServices, type Services } from './server/services.ts';
import { localUrl, newOperatorToken, publishOperatorChannel } from './server/ops/local-operator.ts';
import { startWorker, type RunningWorker } from './workers/worker.ts';
import { seedIfEmpty } from './server/catalogue/demo-city.ts';
import { cleanAbandonedUploads, type AbandonedUploadsCleanup } from './server/photos/abandoned-uploads.ts';

type Role = 'api' | 'worker' | 'all';

/**
 * The services, once the database answers: a process started while Postgres is down or
 * restarting (a deployment's processes start in any order) waits for it with capped backoff
 * instead of exiting. Every role runs consumers of the log (the api its live broadcaster, the
 * worker the dispatcher): on a log restored from another cluster they would silently skip every
 * new event, so that stops the process.
 */
async function openServices(config: Config, role: Role): Promise<Services> {
  for (let tries = 1; ; tries++) {
    let services: Services | undefined;
    try {
      services = await createServices(config, { boundStatements: role !== 'worker' });
      const log = await checkLogIncarnation(services.database.db);
      if (log.restored) {
        console.error(restoredLogMessage(log));
        await closeServices(services);
        process.exit(1);
      }
      return services;
    } catch (error) {
      if (services) await closeServices(services).catch(() => {});
      if (!isDependencyDown(error)) throw error;
      const delay = backoffMs(tries);
      console.error(
        `${role}: the database cannot be reached (${String(error)}); trying again in ${delay} ms`,
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

export async function main(role: Role): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let services;
  try {
    services = await openServices(config, role);
  } catch (error) {
    if (error instanceof DataDirectoryLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { logger } = services;
  let worker: RunningWorker | null = null;
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;

  if (role !== 'worker' && config.seedOnEmpty) {
    const seeded = await seedIfEmpty(services);
    if (seeded) logger.info(seeded, 'empty database: added the demo city');
  }
  if (role === 'worker' || role === 'all') worker = await startWorker(services);
  // Embedded storage is this process's alone (it holds the data directory's lock): operator
  // commands run against it are handed to this process through a token only the directory's
  // owner can read (see ops/local-operator.ts).
  const dataDir = services.database.dataDir;
  const localOperatorToken = dataDir && role !== 'worker' ? newOperatorToken() : undefined;
  let unpublish = () => {};
  let abandonedUploads: AbandonedUploadsCleanup | null = null;
  if (role === 'api' || role === 'all') {
    // Uploads are received by api processes, on their host's disk: with photos in a bucket each
    // clears its host's. (Under a shared UPLOAD_DIR the worker's sweep already covers every host.)
    if (config.photoStorage === 's3')
      abandonedUploads = cleanAbandonedUploads(services.photoStorage, {
        minAgeHours: config.orphanMinAgeHours,
        logger,
      });
    app = await buildApp(services, { localOperatorToken });
    await app.listen({ port: config.port, host: config.host });
    if (dataDir && localOperatorToken)
      unpublish = publishOperatorChannel(dataDir, {
        pid: process.pid,
        url: localUrl(app.server.address() as AddressInfo),
        token: localOperatorToken,
      });
    logger.info(
      { storage: services.database.kind, queue: services.queue.kind },
      `Bodega Cats is running on http://localhost:${config.port}`,
    );
  } else {
    logger.info({ storage: services.database.kind, queue: services.queue.kind }, 'worker started');
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15000);
    force.unref();
    try {
      unpublish();
      await app?.close(); // stops accepting, lets in-flight requests finish
      await abandonedUploads?.stop();
      await worker?.stop();
      await closeServices(services);
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

const arg = process.argv[2];
if (arg === 'api' || arg === 'worker' || arg === 'all') {
  void main(arg).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
