// Shared benchmark plumbing: a throwaway database, HTTP load with autocannon, and the same kind of
// load run straight against the database, both reported as latency percentiles and throughput.
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import sharp from 'sharp';
import { loadConfig, type Config } from '../server/config.ts';
import { openDatabase, type Database } from '../server/db/database.ts';
import { preparedName } from '../server/db/plans.ts';
import { createInlineQueue } from '../server/queue/inline.ts';
import { createServices, type Services } from '../server/services.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import type { DB } from '../server/db/schema.ts';
import { streamIds } from '../server/events/types.ts';
import type { BenchRow } from './types.ts';

export const BENCH_ADMIN_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const BENCH_REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/**
 * DATA_KEY of every production-mode app the bench runs: one per run, in the environment so that
 * the app processes it forks open the personal-data keys its own appends wrapped.
 */
export const BENCH_DATA_KEY = (process.env.BENCH_DATA_KEY ??= randomBytes(32).toString('hex'));

export type LoadStats = {
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  requests: number;
  errors: number;
};

export type BenchDatabase = { url: string; database: Database; drop(): Promise<void> };

/** A fresh, migrated Postgres database for one scenario. */
export async function createBenchDatabase(name: string): Promise<BenchDatabase> {
  const dbName = `bodega_bench_${name}`;
  const admin = new pg.Client({ connectionString: BENCH_ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const u = new URL(BENCH_ADMIN_URL);
  u.pathname = `/${dbName}`;
  const url = u.toString();
  const database = await openDatabase({ url, poolSize: 40 });
  await migrateToLatest(database.db);
  return {
    url,
    database,
    async drop() {
      await database.close();
      const a = new pg.Client({ connectionString: BENCH_ADMIN_URL });
      await a.connect();
      await a.query(`drop database if exists ${dbName} with (force)`);
      await a.end();
    },
  };
}

/** App services on an open benchmark database, quiet and without the write rate limit. */
export function benchServices(database: Database, overrides: Partial<Config> = {}): Promise<Services> {
  const config = {
    ...loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'bench-secret-0123456789abcdef0123456789' }),
    logLevel: 'silent',
    writeRateLimitPerMinute: 0,
    ...overrides,
  };
  return createServices(config, { database, queue: createInlineQueue(database), migrate: false });
}

/**
 * The generated read tables as a database that has been running for a while holds them: written
 * compactly, with statistics and the visibility map. Generating a city appends a shop and its cats
 * in one transaction, so each shop's row is rewritten once per cat before anything can reclaim the
 * old versions, and this server runs without autovacuum: left so, 20,000 shops take 78 MB and
 * every read of a few rows touches pages of dead ones (12 MB once rewritten). A running server
 * reclaims old row versions as they die, and its pages stay dense.
 */
export async function settleTables(database: Database, tables: string[]): Promise<void> {
  const list = sql.raw(tables.join(', '));
  await sql`vacuum full ${list}`.execute(database.db);
  await sql`vacuum analyze ${list}`.execute(database.db);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export function statsOf(latenciesMs: number[], seconds: number, errors = 0): LoadStats {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    rps: latenciesMs.length / seconds,
    requests: latenciesMs.length,
    errors,
  };
}

/** HTTP load on loopback: `paths` are cycled; bounded by duration (and autocannon's own limits). */
export async function httpLoad(options: {
  baseUrl: string;
  paths: string[];
  connections: number;
  seconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  bodies?: string[];
  /** Per-request headers, cycled with bodies (e.g. one token per user). */
  headerSets?: Record<string, string>[];
}): Promise<LoadStats> {
  let i = 0;
  const result = await autocannon({
    url: options.baseUrl,
    connections: options.connections,
    duration: options.seconds,
    method: options.method ?? 'GET',
    headers: options.headers,
    requests: [
      {
        setupRequest: (req: autocannon.Request) => {
          const n = i++;
          req.path = options.paths[n % options.paths.length];
          if (options.bodies) req.body = options.bodies[n % options.bodies.length];
          if (options.headerSets)
            req.headers = { ...req.headers, ...options.headerSets[n % options.headerSets.length] };
          return req;
        },
      },
    ],
  });
  const non2xx = result.non2xx + result.errors + result.timeouts;
  return {
    p50: result.latency.p50,
    p95: interpolateP95(result.latency),
    p99: result.latency.p99,
    rps: result.requests.average,
    requests: result.requests.total,
    errors: non2xx,
  };
}

// autocannon reports p90 and p97.5, not p95: interpolate between them (p99 where p97.5 is missing).
function interpolateP95(l: { p90: number; p99: number; p97_5?: number }): number {
  if (l.p97_5 === undefined) return l.p99;
  return l.p90 + ((l.p97_5 - l.p90) * (95 - 90)) / (97.5 - 90);
}

/** The same load straight against the database: `connections` clients looping for `seconds`. */
export async function sqlLoad(options: {
  url: string;
  connections: number;
  seconds: number;
  run(client: pg.PoolClient, n: number): Promise<unknown>;
}): Promise<LoadStats> {
  const pool = new pg.Pool({ connectionString: options.url, max: options.connections });
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < deadline) {
          const t0 = performance.now();
          try {
            await options.run(client, n++);
            latencies.push(performance.now() - t0);
          } catch {
            errors++;
          }
        }
      } finally {
        client.release();
      }
    }),
  );
  await pool.end();
  return statsOf(latencies, (performance.now() - started) / 1000, errors);
}

export function row(
  scenario: string,
  metric: string,
  unit: string,
  value: number,
  baseline: number,
  baselineLabel: string,
  target?: { text: string; pass: boolean },
): BenchRow {
  return {
    scenario,
    metric,
    unit,
    value: round(value),
    baseline: round(baseline),
    baselineLabel,
    ratio: baseline === 0 ? 0 : round(value / baseline, 3),
    target: target?.text,
    pass: target?.pass,
  };
}

export function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** The statements one request runs, recorded by running it once through a logging Kysely. */
/** Sends a recorded statement as the app sends it: one the app prepares once per session is prepared here too. */
export function sendAsApp(client: pg.ClientBase, statement: CompiledQuery): Promise<unknown> {
  const name = preparedName(statement.sql) ?? undefined;
  return client.query({ text: statement.sql, values: statement.parameters as unknown[], name });
}

export async function statementsOf(
  url: string,
  run: (db: Kysely<DB>) => Promise<unknown>,
): Promise<CompiledQuery[]> {
  const recorded: CompiledQuery[] = [];
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') recorded.push(event.query);
    },
  });
  try {
    await run(db);
  } finally {
    await db.destroy();
  }
  return recorded;
}

/**
 * A city of one: user 1, their shop (bodega 1) and its cat (cat 1, friendly), appended through the
 * store as the app would, for scenarios that measure one item's pages, photos or cards.
 */
export async function seedOneCat(
  services: Services,
  names: { bodega: string; address: string; breed: string },
): Promise<number> {
  const { db } = services.database;
  await db
    .insertInto('users')
    .values({ id: 1, username: 'bench', email: 'bench@example.test', password_hash: 'x' })
    .execute();
  await services.store.append(db, streamIds.bodega(1), 0, [
    {
      type: 'BodegaAdded',
      data: {
        bodega_id: 1,
        created_by: 1,
        name: names.bodega,
        address: names.address,
        latitude: 40.75,
        longitude: -73.98,
        description: '',
        phone: '',
        hours: '',
      },
    },
  ]);
  await services.store.append(db, streamIds.cat(1), 0, [
    {
      type: 'CatAdded',
      data: {
        cat_id: 1,
        bodega_id: 1,
        created_by: 1,
        name: 'Bench Cat',
        description: '',
        age: '',
        breed: names.breed,
        sex: '',
        personality: '',
        color: '',
        weight: '',
        is_friendly: true,
      },
    },
  ]);
  return 1;
}

/**
 * Camera-like content: smoothed noise from a seeded generator compresses like a real photo, and
 * the same arguments give the same bytes in every run.
 */
export async function cameraJpeg(options: {
  width: number;
  height: number;
  seed: number;
  quality: number;
}): Promise<Buffer> {
  const { width, height, quality } = options;
  const pixels = Buffer.alloc(width * height * 3);
  let state = options.seed;
  for (let i = 0; i < pixels.length; i++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = state >>> 23;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .blur(1.2)
    .jpeg({ quality })
    .toBuffer();
}
