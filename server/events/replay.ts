// Replay: rebuild projections' read tables from the log into shadow tables (schema replay_shadow),
// catch up, then swap them in with one short transaction while writers wait. --verify builds the
// shadows the same way and compares them with the live tables instead of swapping; the comparison
// runs in one repeatable-read snapshot and holds no lock, so writers never wait for it.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import type { Projection } from './projection.ts';
import { applyProjectionsInBatch } from './store.ts';
import { readAfter, START, type Cursor } from './consumer.ts';
import { toRecordedEvent } from './store.ts';
import type { RecordedEvent } from './types.ts';

const SHADOW = 'replay_shadow';
const BATCH = 5000;

export type ReplayProgress = { done: number; total: number; eventsPerSecond: number; etaSeconds: number };

export type TableDifference = { table: string; liveRows: number; shadowRows: number; same: boolean };

export type ReplayResult = {
  events: number;
  seconds: number;
  /** How long writers were held during the final catch-up and swap (0 for --verify). */
  lockMs: number;
  /** The rebuilt tables against the live ones, in one snapshot taken before the swap. */
  differences: TableDifference[];
};

export type ReplayOptions = {
  verify?: boolean;
  onProgress?(p: ReplayProgress): void;
  /** How long the final step may wait for a table lock before it backs off and retries. */
  lockTimeoutMs?: number;
};

export async function replay(
  database: Database,
  projections: readonly Projection[],
  options: ReplayOptions = {},
): Promise<ReplayResult> {
  const { db } = database;
  const tables = [...new Set(projections.flatMap((p) => p.tables))];
  const started = Date.now();
  const deferred = await createShadows(db, tables);
  try {
    const { rows } = await sql<{ n: number }>`select count(*)::bigint as n from events`.execute(db);
    const total = Number(rows[0]?.n ?? 0);
    let cursor: Cursor = START;
    let done = 0;
    for (;;) {
      const batch = await readAfter(db, cursor, BATCH);
      if (batch.length === 0) break;
      await db.transaction().execute(async (trx) => {
        await sql`set local search_path to ${sql.raw(SHADOW)}, public`.execute(trx);
        await applyProjectionsInBatch(trx, projections, batch);
      });
      cursor = { transactionId: batch.at(-1)!.transactionId, position: batch.at(-1)!.position };
      done += batch.length;
      const seconds = Math.max(0.001, (Date.now() - started) / 1000);
      const rate = done / seconds;
      options.onProgress?.({
        done,
        total: Math.max(total, done),
        eventsPerSecond: rate,
        etaSeconds: Math.max(0, (total - done) / rate),
      });
    }
    await createDeferredIndexes(db, deferred);
    const compared = await compareInSnapshot(db, tables, projections, cursor);
    if (options.verify) {
      return {
        events: done + compared.caughtUp,
        seconds: (Date.now() - started) / 1000,
        lockMs: 0,
        differences: compared.differences,
      };
    }
    const final = await finish(db, tables, projections, cursor, options);
    return {
      events: done + final.caughtUp,
      seconds: (Date.now() - started) / 1000,
      lockMs: final.lockMs,
      differences: compared.differences,
    };
  } finally {
    await sql`drop schema if exists ${sql.raw(SHADOW)} cascade`.execute(db);
  }
}

/**
 * Creates an empty shadow of each table with all its constraints and indexes, then drops the
 * shadows' GIN and GiST indexes (full-text and geo), which are far cheaper to build once at the end
 * than to maintain row by row; it returns their definitions for createDeferredIndexes.
 */
async function createShadows(db: Kysely<DB>, tables: string[]): Promise<string[]> {
  await sql`drop schema if exists ${sql.raw(SHADOW)} cascade`.execute(db);
  await sql`create schema ${sql.raw(SHADOW)}`.execute(db);
  for (const table of tables) {
    await sql`create table ${sql.raw(`${SHADOW}.${table}`)} (like ${sql.raw(`public.${table}`)} including all)`.execute(
      db,
    );
  }
  const { rows } = await sql<{ indexname: string; indexdef: string }>`
    select indexname, indexdef from pg_indexes
    where schemaname = ${SHADOW} and indexdef ~ ' USING (gin|gist) '`.execute(db);
  for (const index of rows) {
    await sql`drop index ${sql.raw(`${SHADOW}.${quoteIdent(index.indexname)}`)}`.execute(db);
  }
  return rows.map((index) => index.indexdef);
}

async function createDeferredIndexes(db: Kysely<DB>, definitions: string[]): Promise<void> {
  for (const definition of definitions) {
    await db.transaction().execute(async (trx) => {
      await sql`set local maintenance_work_mem = '256MB'`.execute(trx);
      await sql.raw(definition).execute(trx);
    });
  }
}

/**
 * The short final step. Writers are held by an EXCLUSIVE lock on `events` (it blocks appends but
 * not reads), taken first so no writer can be half-way when the read tables are locked. The read
 * table locks use a short lock_timeout: if a reader is in the way we back off, let writers go on,
 * and try again, rather than risk a deadlock that would fail a writer.
 */
async function finish(
  db: Kysely<DB>,
  tables: string[],
  projections: readonly Projection[],
  cursor: Cursor,
  options: ReplayOptions,
): Promise<{ caughtUp: number; lockMs: number }> {
  const lockTimeout = options.lockTimeoutMs ?? 200;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        await sql`set local lock_timeout = ${sql.lit(`${lockTimeout}ms`)}`.execute(trx);
        await sql`lock table events in exclusive mode`.execute(trx);
        const lockedAt = Date.now();
        for (const table of tables) {
          await sql`lock table ${sql.raw(`public.${table}`)} in access exclusive mode`.execute(trx);
        }
        // Everything committed is visible now and no append can be in flight: read to the end.
        const caughtUp = await applyVisibleRest(trx, projections, cursor);
        await swap(trx, tables);
        return { caughtUp, lockMs: Date.now() - lockedAt };
      });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if ((code === '55P03' || code === '40P01') && attempt < 50) {
        await new Promise((r) => setTimeout(r, 50 * attempt));
        continue;
      }
      throw error;
    }
  }
}

/** Applies to the shadows every event after the cursor that this transaction's snapshot sees. */
async function applyVisibleRest(
  trx: Kysely<DB>,
  projections: readonly Projection[],
  cursor: Cursor,
): Promise<number> {
  const { rows } = await sql<Parameters<typeof toRecordedEvent>[0]>`
    select global_position, stream_id, stream_version, type, schema_version, data, metadata,
           transaction_id::text as transaction_id, recorded_at
    from events
    where (transaction_id, global_position) > (${cursor.transactionId}::xid8, ${cursor.position}::bigint)
    order by events.transaction_id, events.global_position`.execute(trx);
  const rest: RecordedEvent[] = rows.map(toRecordedEvent);
  await sql`set local search_path to ${sql.raw(SHADOW)}, public`.execute(trx);
  await applyProjectionsInBatch(trx, projections, rest);
  await sql`set local search_path to public`.execute(trx);
  return rest.length;
}

const ROLLBACK = Symbol('rollback');

/**
 * Compares the shadows, caught up to one snapshot, with the live tables in that same snapshot.
 * Each transaction's events and its read-table writes commit together, so both sides then reflect
 * exactly the same transactions, with no lock taken. The catch-up is rolled back: the shadows stay
 * at the cursor, which is safe to continue from (events past it may still be committing out of
 * order).
 */
async function compareInSnapshot(
  db: Kysely<DB>,
  tables: string[],
  projections: readonly Projection[],
  cursor: Cursor,
): Promise<{ caughtUp: number; differences: TableDifference[] }> {
  let result: { caughtUp: number; differences: TableDifference[] } | null = null;
  try {
    await db.transaction().execute(async (trx) => {
      await sql`set transaction isolation level repeatable read`.execute(trx);
      const caughtUp = await applyVisibleRest(trx, projections, cursor);
      result = { caughtUp, differences: await compare(trx, tables) };
      throw ROLLBACK;
    });
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  }
  return result!;
}

async function compare(trx: Kysely<DB>, tables: string[]): Promise<TableDifference[]> {
  const out: TableDifference[] = [];
  for (const table of tables) {
    const digest = async (qualified: string) => {
      const { rows } = await sql<{ n: number; digest: string | null }>`
        select count(*)::bigint as n, md5(string_agg(h, '' order by h)) as digest
        from (select md5(t::text) as h from ${sql.raw(qualified)} t) s`.execute(trx);
      return { n: Number(rows[0]?.n ?? 0), digest: rows[0]?.digest ?? null };
    };
    const live = await digest(`public.${table}`);
    const shadow = await digest(`${SHADOW}.${table}`);
    out.push({
      table,
      liveRows: live.n,
      shadowRows: shadow.n,
      same: live.n === shadow.n && live.digest === shadow.digest,
    });
  }
  return out;
}

/** Drops each live table and moves its shadow in, giving the shadow's indexes the live names. */
async function swap(trx: Kysely<DB>, tables: string[]): Promise<void> {
  const normalize = (def: string) => def.replace(/INDEX \S+ ON \S+/, 'INDEX ON');
  for (const table of tables) {
    const { rows: indexes } = await sql<{ schemaname: string; indexname: string; indexdef: string }>`
      select schemaname, indexname, indexdef from pg_indexes
      where tablename = ${table} and schemaname in ('public', ${SHADOW})`.execute(trx);
    const liveNames = new Map<string, string[]>();
    for (const ix of indexes.filter((i) => i.schemaname === 'public')) {
      const key = normalize(ix.indexdef);
      liveNames.set(key, [...(liveNames.get(key) ?? []), ix.indexname]);
    }
    await sql`drop table ${sql.raw(`public.${table}`)}`.execute(trx);
    await sql`alter table ${sql.raw(`${SHADOW}.${table}`)} set schema public`.execute(trx);
    for (const ix of indexes.filter((i) => i.schemaname === SHADOW)) {
      const name = liveNames.get(normalize(ix.indexdef))?.shift();
      if (name && name !== ix.indexname) {
        await sql`alter index ${sql.raw(`public.${quoteIdent(ix.indexname)}`)} rename to ${sql.raw(quoteIdent(name))}`.execute(
          trx,
        );
      }
    }
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
