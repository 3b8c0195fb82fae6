// The SQL driver behind one small interface: real Postgres (pg pool) or embedded PGlite.
import path from 'node:path';
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import type { DB } from './schema.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { lockDataDirectory, type DataDirectoryLock } from './data-lock.ts';
import { EmbeddedStorage, type StorageLogger } from './pglite-host.ts';
import { preparedName } from './plans.ts';

export type Database = {
  kind: 'postgres' | 'pglite';
  /** The embedded data directory (held locked while open); null for Postgres and in-memory PGlite. */
  dataDir: string | null;
  db: Kysely<DB>;
  /** Subscribe to NOTIFY on a channel; returns an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Embedded mode only: the supervised storage thread (restart count, test-only faults). */
  embedded?: EmbeddedStorage;
};

const INT8 = 20;
const NUMERIC = 1700;
pg.types.setTypeParser(INT8, (v) => Number(v));
pg.types.setTypeParser(NUMERIC, (v) => Number(v));

export type DatabaseOptions = {
  url: string | null;
  dataDir?: string | null;
  poolSize?: number;
  /**
   * Postgres only: the server cancels any statement of the pool's sessions that runs (or waits for
   * a lock) longer than this, so no request holds a connection without bound. Unset: no limit.
   */
  statementTimeoutMs?: number | null;
  /** Embedded mode, in memory: start as a copy of this dump (see EmbeddedStorage's copyOf). */
  embeddedCopyOf?: string | null;
  /** Embedded mode: how long the storage thread may stop answering before it is restarted. */
  embeddedDeadlineMs?: number;
  /** Embedded mode: honour test-only faults (always on under NODE_ENV=test). */
  embeddedTestHooks?: boolean;
  /** Embedded mode: where restarts of the storage thread are reported. */
  logger?: StorageLogger;
};

/** Where the configuration says the data lives: Postgres at DATABASE_URL, else PGlite in DATA_DIR. */
export function configuredStorage(
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'embeddedStorageDeadlineMs'>,
): DatabaseOptions {
  return {
    url: config.databaseUrl,
    dataDir: config.databaseUrl ? null : config.dataDir,
    embeddedDeadlineMs: config.embeddedStorageDeadlineMs,
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url
    ? openPostgres(options.url, options.poolSize ?? 10, options.statementTimeoutMs ?? null)
    : openPGlite(options);
}

async function openPostgres(
  url: string,
  poolSize: number,
  statementTimeoutMs: number | null,
): Promise<Database> {
  const pool = postgresPool(url, { poolSize, statementTimeoutMs });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparingMarked(pool) }) });
  const listeners: pg.Client[] = [];
  return {
    kind: 'postgres',
    dataDir: null,
    db,
    async listen(channel, onNotify) {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => {});
      await client.connect();
      client.on('notification', (msg) => {
        if (msg.channel === channel) onNotify(msg.payload ?? '');
      });
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      listeners.push(client);
      return async () => {
        listeners.splice(listeners.indexOf(client), 1);
        await client.end().catch(() => {});
      };
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await Promise.all(listeners.map((c) => c.end().catch(() => {})));
      await db.destroy();
    },
  };
}

export type PostgresPoolOptions = {
  poolSize: number;
  statementTimeoutMs: number | null;
  /** How long a new session may take to open (5 s unless given). */
  connectTimeoutMs?: number;
  /** The client gives up on a statement's answer after this long (a server gone silent); unset: never. */
  queryTimeoutMs?: number;
};

/** A pg pool of sessions to `url` as the app opens them (the primary's and each replica's). */
export function postgresPool(url: string, options: PostgresPoolOptions): pg.Pool {
  const { poolSize, statementTimeoutMs } = options;
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    // A session left idle inside a transaction (a bug, a stuck await) would hold locks and the
    // log's horizon back from every consumer: the server ends it after 30 s.
    idle_in_transaction_session_timeout: 30_000,
    // Sent with each session's start, so it is the session's default: a `reset statement_timeout`
    // (see migrate.ts) comes back to it.
    ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
    ...(options.queryTimeoutMs ? { query_timeout: options.queryTimeoutMs } : {}),
  });
  // A client losing its server (restart, failover) must not crash the process: idle clients
  // report through the pool, checked-out ones through their own listener; the query in flight
  // still fails, and the pool replaces the client.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** "cached plan must not change result type" */
const RESULT_TYPE_CHANGED = '0A000';

/**
 * The pool as Kysely sees it, sending statements marked with reusePlan (plans.ts) as named prepared
 * statements: each session prepares one the first time it runs it and reuses it after that.
 */
export function preparingMarked(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let connection = wrapped.get(client);
      if (!connection) {
        // A statement prepared again under a new name after its tables' columns changed.
        const renamed = new Map<string, string>();
        const query = async (text: string | object, values?: readonly unknown[]) => {
          if (typeof text !== 'string') return client.query(text as pg.Submittable);
          const name = preparedName(text);
          if (!name) return client.query(text, values as unknown[]);
          const current = renamed.get(name) ?? name;
          try {
            return await client.query({ name: current, text, values: values as unknown[] });
          } catch (error) {
            // The session's prepared statement no longer fits its tables (a migration by a newer
            // process changed a column): prepare the text again under another name.
            if ((error as { code?: string }).code !== RESULT_TYPE_CHANGED) throw error;
            const next = `${name}_${renamed.size + 1}`;
            renamed.set(name, next);
            return client.query({ name: next, text, values: values as unknown[] });
          }
        };
        connection = {
          query: query as unknown as PostgresPoolClient['query'],
          release: () => client.release(),
        };
        wrapped.set(client, connection);
      }
      return connection;
    },
    end: () => pool.end(),
  };
}

async function openPGlite(options: DatabaseOptions): Promise<Database> {
  const dataDir = options.dataDir ?? null;
  // Locked before PGlite touches a file, so a second process fails fast (DataDirectoryLockedError).
  // The lock belongs to this process, not to the storage thread, so it is held across restarts.
  const lock: DataDirectoryLock | null = dataDir ? lockDataDirectory(dataDir) : null;
  let storage: EmbeddedStorage;
  try {
    storage = await EmbeddedStorage.open({
      dataDir: lock ? path.dirname(lock.path) : null,
      copyOf: options.embeddedCopyOf ?? null,
      deadlineMs: options.embeddedDeadlineMs,
      testHooks: options.embeddedTestHooks,
      logger: options.logger,
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const db = new Kysely<DB>({ dialect: new PGliteDialect(() => storage.session()) });
  return {
    kind: 'pglite',
    dataDir: lock ? path.dirname(lock.path) : null,
    db,
    embedded: storage,
    async listen(channel, onNotify) {
      return storage.listen(channel, onNotify);
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      try {
        await db.destroy();
        await storage.close();
      } finally {
        lock?.release();
      }
    },
  };
}
