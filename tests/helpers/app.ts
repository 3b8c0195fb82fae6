// A whole app (services + Fastify + optional worker) on a fresh test database.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { createLogger, createServices, type Services } from '../../server/services.ts';
import { startWorker, type RunningWorker } from '../../workers/worker.ts';
import type { JobQueue } from '../../server/queue/queue.ts';
import { openDatabase } from '../../server/db/database.ts';
import { createTestDatabase, createTestQueue, type TestDatabase } from './storage.ts';
import type { Json } from './json.ts';

export type TestApp = {
  app: FastifyInstance;
  services: Services;
  worker: RunningWorker | null;
  /** The test database's URL (real Postgres), or null in embedded mode. */
  databaseUrl: string | null;
  /** Waits until the dispatcher has seen every committed event and the queue is idle. */
  settle(): Promise<void>;
  close(): Promise<void>;
};

export function testConfig(overrides: Partial<Config> = {}): Config {
  // No street map style by default: tests have no internet.
  const base = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: 'test-secret-with-enough-entropy-0123456789',
    MAP_STYLE_URL: 'none',
  });
  // The write rate limit and upload quotas have their own tests; other suites write faster than a
  // person would.
  return {
    ...base,
    seedOnEmpty: false,
    writeRateLimitPerMinute: 0,
    uploads: { perMinute: 0, perDay: 0 },
    ...overrides,
  };
}

/**
 * A second app on another app's database, like a second api process: its own pool on real
 * Postgres, the same in-memory instance on PGlite. Closing it leaves the database to its owner.
 */
async function attachTo(owner: TestApp): Promise<TestDatabase> {
  if (!owner.databaseUrl) return { database: owner.services.database, url: null, drop: async () => {} };
  const database = await openDatabase({ url: owner.databaseUrl, poolSize: 20 });
  return { database, url: owner.databaseUrl, drop: () => database.close() };
}

export async function createTestApp(
  options: { worker?: boolean; config?: Partial<Config>; queue?: JobQueue; sameDatabaseAs?: TestApp } = {},
): Promise<TestApp> {
  const testDb = options.sameDatabaseAs ? await attachTo(options.sameDatabaseAs) : await createTestDatabase();
  // A caller may bring its own queue (e.g. BullMQ on a Redis it controls); it is closed with the app.
  const queue = options.queue ?? createTestQueue(testDb.database).queue;
  const config = testConfig(options.config);
  const services = await createServices(config, {
    database: testDb.database,
    queue,
    migrate: false,
    logger: createLogger(config),
  });
  const worker = options.worker === false ? null : await startWorker(services, { pollMs: 200 });
  const app = await buildApp(services, { serveClient: false });
  await app.ready();
  return {
    app,
    services,
    worker,
    databaseUrl: testDb.url,
    async settle() {
      if (!worker) return;
      for (let i = 0; i < 3; i++) {
        await worker.dispatcher.drain();
        await services.queue.idle();
      }
    },
    async close() {
      await app.close();
      await worker?.stop();
      await services.queue.close();
      await services.photoStorage.close();
      await testDb.drop();
    },
  };
}

/** Shorthand for JSON requests through app.inject. */
export async function call(
  app: FastifyInstance,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
  token?: string,
) {
  const res = await app.inject({
    method,
    url,
    payload: body === undefined ? undefined : (body as InjectOptions['payload']),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  let json: Json;
  try {
    json = res.json();
  } catch {
    json = null;
  }
  return { status: res.statusCode, body: json, headers: res.headers };
}
