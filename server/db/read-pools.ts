// Where a read runs: the one place that chooses between the primary and the streaming replicas.
//
// A route names the kind of read it makes (ReadKind); this module turns that, whether the reader is
// signed in and the log position their last write produced (X-Log-Position, read-your-writes) into
// a server. Public reads that may lag go to a replica in rotation, in turn; everything else (writes,
// consumers, the live broadcaster, a signed-in person's own data) stays on the primary, which every
// module other than the read routes uses directly.
//
// A background check keeps the rotation: a replica leaves it when it stops answering, stops being a
// standby, or lags more than REPLICA_MAX_LAG_MS, and comes back when it answers within the bound
// again. A statement that fails on a replica because the replica died (or because replay cancelled
// it) runs again on the primary, so a dead replica costs time, never an error.
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  sql,
  type PostgresPool,
  type PostgresPoolClient,
} from 'kysely';
import pg from 'pg';
import type { ReplicaSettings } from '../config.ts';
import type { Database } from './database.ts';
import { postgresPool, preparingMarked } from './database.ts';
import type { DB } from './schema.ts';

/**
 * - `public`: the same for everyone and allowed to lag (search, nearby, map, suggestions, review
 *   lists): a replica.
 * - `visitor`: a public page that shows a signed-in reader their own state (a cat's page says
 *   whether they saved it): a replica for visitors, the primary for a signed-in reader.
 * - `own`: a signed-in person's own data: the primary.
 *
 * A route that names no kind reads on the primary.
 */
export type ReadKind = 'public' | 'visitor' | 'own';

/** A read as the choice sees it. `after`: the log position the reader must see (or null). */
export type ReadRequest = { kind: ReadKind | undefined; signedIn: boolean; after: LogPosition | null };

/** A position in the primary's write-ahead log (a pg_lsn), as a number. */
export type LogPosition = bigint;

const LSN = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/;

/** `16/B374D848` as a position; null for anything else. */
export function parseLogPosition(text: string): LogPosition | null {
  const match = LSN.exec(text.trim());
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** A position as Postgres writes a pg_lsn (upper-case hex halves). */
export function formatLogPosition(position: LogPosition): string {
  const high = (position >> 32n).toString(16).toUpperCase();
  const low = (position & 0xffffffffn).toString(16).toUpperCase();
  return `${high}/${low}`;
}

/** Whether a read of this kind by this reader may be served by a replica at all. */
export function mayUseReplica(kind: ReadKind | undefined, signedIn: boolean): boolean {
  return kind === 'public' || (kind === 'visitor' && !signedIn);
}

/** The server a read runs on. */
export type Reader = {
  db: Kysely<DB>;
  /** `primary`, or the replica's name (its host, port and database). */
  server: string;
  /**
   * A hot standby: its snapshots do not list the primary's running transactions (see
   * search/cache.ts). A replica's reader stays marked so when its statements fall back to the
   * primary, which is sound the other way round.
   */
  standby: boolean;
};

export type ReplicaState = {
  name: string;
  /** The last check (or statement) reached it, and it is a standby. */
  up: boolean;
  /** How far behind the primary it was at the last check (ms); null before one succeeds. */
  lagMs: number | null;
  inRotation: boolean;
};

export type ReadPools = {
  reader(request: ReadRequest): Promise<Reader>;
  /**
   * The primary's log position now: after a write has committed, the position a reader must have
   * replayed to see it. Null when there are no replicas (nothing needs it).
   */
  positionAfterWrite(): Promise<string | null>;
  replicas(): ReplicaState[];
  /** One round of the health check (the timer runs it; tests may call it). */
  check(): Promise<void>;
  close(): Promise<void>;
};

/**
 * How far behind the primary a replica is, from samples of the primary's position taken at each
 * check before the replicas are asked. A replica that has replayed the newest sample's position is
 * current (lag 0), however long ago the primary last wrote: an idle primary makes no one lag. One
 * that has not is missing WAL the primary had at the first sample past its position, so it is at
 * least that sample's age behind.
 */
export class LagClock {
  private samples: { at: number; position: LogPosition }[] = [];

  constructor(private readonly keepMs: number) {}

  record(at: number, position: LogPosition): void {
    const last = this.samples.at(-1);
    // Only changes are worth keeping: the first sample at a position is its earliest time.
    if (!last || position > last.position) this.samples.push({ at, position });
    // Older samples matter only to say a replica is further behind than keepMs, which the oldest
    // kept one says as well.
    while (this.samples.length > 1 && this.samples[1]!.at < at - this.keepMs) this.samples.shift();
  }

  /** The lag of a replica that has replayed `replayed`, at `now`; null before any sample. */
  lagOf(replayed: LogPosition, now: number): number | null {
    if (this.samples.length === 0) return null;
    const missing = this.samples.find((s) => s.position > replayed);
    return missing ? Math.max(0, now - missing.at) : 0;
  }
}

/** Statements from the app's pools are cut off by the server; a replica's also by the client. */
export type ReadPoolOptions = {
  statementTimeoutMs: number | null;
  /** Reports a replica leaving or rejoining the rotation. */
  log?: (message: string, details: Record<string, unknown>) => void;
  /** How often the health check runs; by default a quarter of REPLICA_MAX_LAG_MS, 100 ms to 1 s. */
  checkEveryMs?: number;
};

/** The primary alone: embedded storage, or Postgres without replicas. */
function primaryOnly(database: Database): ReadPools {
  const primary: Reader = { db: database.db, server: 'primary', standby: false };
  return {
    reader: async () => primary,
    positionAfterWrite: async () => null,
    replicas: () => [],
    check: async () => {},
    close: async () => {},
  };
}

export function createReadPools(
  database: Database,
  settings: ReplicaSettings,
  options: ReadPoolOptions,
): ReadPools {
  if (database.kind !== 'postgres' || settings.urls.length === 0) return primaryOnly(database);
  const primaryDb = database.db;
  const primary: Reader = { db: primaryDb, server: 'primary', standby: false };
  const checkEveryMs =
    options.checkEveryMs ?? Math.max(100, Math.min(1000, Math.floor(settings.maxLagMs / 4)));
  const clock = new LagClock(settings.maxLagMs * 2);
  const log = options.log ?? (() => {});
  const replicas = settings.urls.map(
    (url, i) => new Replica(url, i, primaryDb, settings.maxLagMs, checkEveryMs, options, log),
  );
  const waiters = new Set<Waiter>();
  let turn = 0;
  let polling = false;
  let closed = false;

  /** The next replica in rotation that has replayed `after`, in turn; null if none has. */
  const pick = (after: LogPosition | null): Replica | null => {
    const ready = replicas.filter((r) => r.inRotation && (after === null || r.hasReplayed(after)));
    if (ready.length === 0) return null;
    return ready[turn++ % ready.length]!;
  };

  /** While reads wait for a position, asks the replicas how far they have replayed, every 10 ms. */
  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      while (waiters.size > 0 && !closed) {
        await Promise.all(replicas.filter((r) => r.inRotation).map((r) => r.readReplayed()));
        for (const waiter of waiters) {
          const found = pick(waiter.after);
          if (found) waiter.done(found);
        }
        if (waiters.size > 0) await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      polling = false;
    }
  };

  const waitFor = (after: LogPosition, ms: number): Promise<Replica | null> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => waiter.done(null), ms);
      const waiter: Waiter = {
        after,
        done(found) {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(found);
        },
      };
      waiters.add(waiter);
      void poll();
    });

  let checking: Promise<void> | null = null;
  const check = () =>
    (checking ??= (async () => {
      try {
        const at = Date.now();
        try {
          const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(
            primaryDb,
          );
          clock.record(at, parseLogPosition(rows[0]!.lsn)!);
        } catch {
          // The primary is down: nothing new can be written, so no replica is falling further
          // behind; their lag is judged again once it answers.
        }
        await Promise.all(replicas.map((r) => r.check(clock)));
      } finally {
        checking = null;
      }
    })());
  const timer = setInterval(() => void check(), checkEveryMs);
  timer.unref();
  void check();

  return {
    async reader(request) {
      if (!mayUseReplica(request.kind, request.signedIn)) return primary;
      const ready = pick(request.after);
      if (ready) return ready.reader;
      if (request.after === null || settings.waitMs === 0 || !replicas.some((r) => r.inRotation))
        return primary;
      return (await waitFor(request.after, settings.waitMs))?.reader ?? primary;
    },
    async positionAfterWrite() {
      const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(
        primaryDb,
      );
      return rows[0]!.lsn;
    },
    replicas: () => replicas.map((r) => r.state()),
    check,
    async close() {
      closed = true;
      clearInterval(timer);
      for (const waiter of waiters) waiter.done(null);
      await checking?.catch(() => {});
      await Promise.all(replicas.map((r) => r.close()));
    },
  };
}

type Waiter = { after: LogPosition; done(found: Replica | null): void };

/** A replica's name for logs and metrics: where it is, never who connects to it. */
function nameOf(url: string, index: number): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`;
  } catch {
    return `replica-${index + 1}`;
  }
}

class Replica {
  readonly name: string;
  readonly reader: Reader;
  private readonly pool: pg.Pool;
  /** The health check's own session, so reads filling the pool cannot make the replica look dead. */
  private probe: pg.Client | null = null;
  private up = false;
  private standby = false;
  private lagMs: number | null = null;
  private replayed: LogPosition | null = null;

  constructor(
    private readonly url: string,
    index: number,
    primaryDb: Kysely<DB>,
    private readonly maxLagMs: number,
    private readonly checkEveryMs: number,
    options: ReadPoolOptions,
    private readonly log: NonNullable<ReadPoolOptions['log']>,
  ) {
    this.name = nameOf(url, index);
    this.pool = postgresPool(url, {
      poolSize: 10,
      statementTimeoutMs: options.statementTimeoutMs,
      // A replica that does not answer is skipped for the primary, so it gets little time.
      connectTimeoutMs: 1000,
      // A replica gone silent (not refusing, just not answering) would hold a read until TCP
      // gives up; its statements are bounded here too, a little after the server's own bound.
      queryTimeoutMs: options.statementTimeoutMs ? options.statementTimeoutMs + 1000 : 30_000,
    });
    const pool = failingOver(preparingMarked(this.pool), primaryDb, (error) => this.died(error));
    this.reader = {
      db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }),
      server: this.name,
      standby: true,
    };
  }

  get inRotation(): boolean {
    return this.up && this.standby && this.lagMs !== null && this.lagMs <= this.maxLagMs;
  }

  hasReplayed(position: LogPosition): boolean {
    return this.replayed !== null && this.replayed >= position;
  }

  state(): ReplicaState {
    return { name: this.name, up: this.up && this.standby, lagMs: this.lagMs, inRotation: this.inRotation };
  }

  /** How far it has replayed, asked now (for reads waiting on a position). */
  async readReplayed(): Promise<void> {
    try {
      const { rows } = await this.ask<{ replayed: string | null }>(
        'select pg_last_wal_replay_lsn()::text as replayed',
      );
      const replayed = rows[0]?.replayed ? parseLogPosition(rows[0].replayed) : null;
      if (replayed !== null && (this.replayed === null || replayed > this.replayed)) this.replayed = replayed;
    } catch {
      // The health check decides what a failure means.
    }
  }

  async check(clock: LagClock): Promise<void> {
    const was = this.inRotation;
    try {
      const { rows } = await this.ask<{ standby: boolean; replayed: string | null }>(
        'select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replayed',
      );
      const row = rows[0]!;
      this.up = true;
      this.standby = row.standby;
      this.replayed = row.replayed ? parseLogPosition(row.replayed) : null;
      this.lagMs = this.replayed === null ? null : clock.lagOf(this.replayed, Date.now());
    } catch (error) {
      this.up = false;
      if (was) this.log('replica left the rotation', { replica: this.name, reason: String(error) });
      return;
    }
    if (was !== this.inRotation)
      this.log(this.inRotation ? 'replica joined the rotation' : 'replica left the rotation', {
        replica: this.name,
        standby: this.standby,
        lagMs: this.lagMs,
      });
  }

  /**
   * A statement on the check's session, opened on first use and again after a failure; bounded,
   * so a silent replica cannot hold the check.
   */
  private async ask<R extends pg.QueryResultRow>(text: string): Promise<pg.QueryResult<R>> {
    const bound = Math.max(1000, this.checkEveryMs);
    let probe = this.probe;
    try {
      if (!probe) {
        probe = new pg.Client({
          connectionString: this.url,
          connectionTimeoutMillis: bound,
          query_timeout: bound,
        });
        probe.on('error', () => {});
        this.probe = probe;
        await probe.connect();
      }
      return await probe.query<R>(text);
    } catch (error) {
      if (this.probe === probe) this.probe = null;
      await probe?.end().catch(() => {});
      throw error;
    }
  }

  /** A statement found it dead: out of the rotation until the check reaches it again. */
  private died(error: unknown): void {
    if (!this.up) return;
    this.up = false;
    this.log('replica left the rotation', { replica: this.name, reason: String(error) });
  }

  async close(): Promise<void> {
    const probe = this.probe;
    this.probe = null;
    await probe?.end().catch(() => {});
    await this.reader.db.destroy();
  }
}

/** SQLSTATEs of a server that is going away or cannot take sessions. */
const SERVER_GONE = new Set(['57P01', '57P02', '57P03']);
/** A standby cancels a statement whose rows replay must remove or lock (a recovery conflict). */
const RECOVERY_CONFLICT = new Set(['40001', '40P01']);

/** The replica's connection or server failed (rather than the statement). */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof pg.DatabaseError)) return true;
  return error.code?.startsWith('08') === true || SERVER_GONE.has(error.code ?? '');
}

type QueryResult = { command: string; rowCount: number | null; rows: unknown[] };

/**
 * A replica's pool whose statements run on the primary instead when the replica cannot answer
 * them: no session could be had, a session broke (`onDead` is told), or replay cancelled the
 * statement. Reads are single statements; inside a transaction (which no read route opens) a
 * failure is passed on, since the rest of the transaction cannot move to another server.
 */
function failingOver(
  replica: PostgresPool,
  primary: Kysely<DB>,
  onDead: (error: unknown) => void,
): PostgresPool {
  const onPrimary = async (text: string, values: readonly unknown[]): Promise<QueryResult> => {
    const result = await primary.executeQuery(CompiledQuery.raw(text, [...values]));
    return { command: 'SELECT', rowCount: result.rows.length, rows: result.rows };
  };
  return {
    async connect() {
      let client: PostgresPoolClient | null = null;
      try {
        client = await replica.connect();
      } catch {
        // No session within the connect timeout: the replica may be down, or only busy (the pool's
        // sessions all in use count against the same timeout). Either way this read goes to the
        // primary; the health check, not a busy moment, decides whether the replica leaves.
      }
      let inTransaction = false;
      const query = async (text: string, values: readonly unknown[]): Promise<QueryResult> => {
        if (!client) return onPrimary(text, values);
        try {
          const result = (await client.query(text, values)) as QueryResult;
          if (/^\s*(begin|start\s+transaction)\b/i.test(text)) inTransaction = true;
          else if (/^\s*(commit|rollback|end)\b/i.test(text)) inTransaction = false;
          return result;
        } catch (error) {
          const dead = isConnectionFailure(error);
          const conflict = error instanceof pg.DatabaseError && RECOVERY_CONFLICT.has(error.code ?? '');
          if (inTransaction || (!dead && !conflict)) throw error;
          if (dead) {
            onDead(error);
            client.release();
            client = null;
          }
          return onPrimary(text, values);
        }
      };
      return {
        query: query as unknown as PostgresPoolClient['query'],
        release: () => client?.release(),
      };
    },
    end: () => replica.end(),
  };
}
