// `npm run doctor`: checks configuration, the database and its extensions, migrations, Redis,
// the upload directory or the photo bucket (PHOTO_STORAGE=s3: reachable, writable, originals not
// public) and consumer lag, and says what is wrong in plain words. In embedded mode,
// the running app checks its own database when it has the data directory open.
import fs from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { ConfigError, loadConfig, type Config } from '../server/config.ts';
import { configuredStorage, openDatabase, type Database } from '../server/db/database.ts';
import { DataDirectoryLockedError } from '../server/db/data-lock.ts';
import { databaseChecks, type Check } from '../server/ops/doctor-checks.ts';
import { bucketChecks } from '../server/photos/bucket-checks.ts';
import { runningAppFor } from './running-app.ts';

const checks: Check[] = [];
const pass = (name: string, detail: string) => checks.push({ name, ok: true, detail });
const fail = (name: string, detail: string) => checks.push({ name, ok: false, detail });

async function checkDatabase(config: Config): Promise<Database | null> {
  let database: Database;
  try {
    database = await openDatabase(configuredStorage(config));
    await database.ping();
    pass('database', config.databaseUrl ? 'Postgres answers' : `embedded PGlite at ${config.dataDir}`);
  } catch (error) {
    if (error instanceof DataDirectoryLockedError) {
      // The running app has the data directory: it checks its own database.
      const app = runningAppFor(error);
      if (!app) {
        fail('database', error.message);
        return null;
      }
      const remote = await app.call<{ checks: Check[] }>('doctor');
      pass(
        'database',
        `embedded PGlite at ${config.dataDir}, open in the running app (pid ${app.channel.pid})`,
      );
      checks.push(...remote.checks);
      return null;
    }
    fail(
      'database',
      `cannot connect: ${(error as Error).message}. Is Postgres running and DATABASE_URL right?`,
    );
    return null;
  }
  checks.push(...(await databaseChecks(database)));
  return database;
}

async function checkRedis(config: Config) {
  if (!config.redisUrl) return pass('queue', 'in-process queue (REDIS_URL not set)');
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    pass('redis', `answers at ${new URL(config.redisUrl).host}`);
  } catch (error) {
    fail('redis', `cannot reach ${config.redisUrl}: ${(error as Error).message}`);
  } finally {
    redis.disconnect();
  }
}

async function checkUploads(config: Config) {
  try {
    await fs.mkdir(config.uploadDir, { recursive: true });
    const probe = path.join(config.uploadDir, `.doctor-${process.pid}`);
    await fs.writeFile(probe, 'ok');
    await fs.rm(probe);
    pass('uploads', `${config.uploadDir} is writable`);
  } catch (error) {
    fail('uploads', `${config.uploadDir} is not writable: ${(error as Error).message}`);
  }
}

let config: Config;
try {
  config = loadConfig();
  pass('config', `${config.env} mode, port ${config.port}`);
  if (config.env !== 'production' && !process.env.JWT_SECRET)
    pass('secret', 'using the development JWT secret (set JWT_SECRET in production)');
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  for (const p of error.problems) fail('config', p);
  report();
  process.exit(1);
}
const database = await checkDatabase(config);
await checkRedis(config);
if (config.photoStorage === 's3' && config.s3) checks.push(...(await bucketChecks(config.s3)));
else await checkUploads(config);
await database?.close();
report();
process.exit(checks.every((c) => c.ok) ? 0 : 1);

function report() {
  for (const c of checks) console.log(`${c.ok ? ' ok ' : 'FAIL'}  ${c.name.padEnd(24)} ${c.detail}`);
  const bad = checks.filter((c) => !c.ok).length;
  console.log(bad ? `\n${bad} problem(s) found.` : '\nEverything looks healthy.');
}
