// A cache of search answers that can never serve a stale one.
//
// Each answer is stored with a token of the log as its snapshot saw it: the newest event position
// it sees, the transactions of this database still running, and the generation of the read tables
// (which a replay's swap changes). Every read table search uses is a
// projection written in the same transaction as its events, so a commit that changes an answer
// either ends a transaction the token lists as running, or (if it began later) appends events past
// every position the token's snapshot could see. Equal tokens therefore mean equal answers, while
// commits elsewhere on the server (other databases, or this app's writes that append no event)
// leave the cache alone. A request costs one tiny statement while nothing has changed, and the
// full search only after a change (by this process or any other).
//
// An answer is stored only when the token taken after computing it equals the one taken before:
// then nothing that matters committed in between, and every statement of the search saw the state
// the token stands for. Concurrent requests for the same key under the same token share one
// computation, and requests arriving together share one token read, started after all arrived.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';

export type SearchCacheStats = { hits: number; misses: number; entries: number; bytes: number };

export type SearchCache = {
  /** The answer for `key`: from the cache when nothing has committed since it was computed. */
  get<T>(key: string, compute: () => Promise<T>): Promise<T>;
  stats(): SearchCacheStats;
};

type Entry = { token: string; value: unknown; bytes: number };

/** The read tables search answers are drawn from (summaries carry ratings and primary photos). */
const ANSWER_TABLES = ['cats', 'bodegas', 'search_words', 'photos', 'reviews'];

/**
 * A running transaction id of a snapshot that pg_stat_activity does not show in another database:
 * one that may write this log. A prepared transaction, or a backend that ended since the snapshot,
 * cannot be attributed and counts, so whatever uses this errs towards waiting.
 */
function mayWriteHere(xid: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`not exists (
    select 1 from pg_stat_activity a where a.backend_xid = ${xid}::xid and a.datname <> current_database())`;
}

async function currentToken(db: Kysely<DB>, kind: Database['kind']): Promise<string> {
  // Embedded storage runs one transaction at a time, so nothing else can be running.
  const running =
    kind === 'pglite'
      ? sql`''`
      : sql`coalesce((
          select string_agg(x::text, ',' order by x) from pg_snapshot_xip(pg_current_snapshot()) as x
          where ${mayWriteHere(sql`x`)}), '')`;
  // The read tables' generation: a replay swaps rebuilt tables in without appending an event, and
  // every swapped-in table is a new relation with a new oid.
  const generation = sql`(
    select string_agg(c.oid::text, '.' order by c.oid) from pg_class c
    where c.oid in (${sql.join(ANSWER_TABLES.map((t) => sql`to_regclass(${`public.${t}`})`))}))`;
  const { rows } = await sql<{ token: string }>`
    select coalesce((select max(global_position) from events), 0)::text || ':' || ${running}
      || ':' || ${generation} as token`.execute(db);
  return rows[0]!.token;
}

/**
 * The current token, read by one statement shared among every caller that asked before it was
 * sent: it starts after each of them arrived, so it reflects every commit they could have seen.
 */
function sharedTokens(db: Kysely<DB>, kind: Database['kind']): () => Promise<string> {
  let next: Promise<string> | null = null;
  return () => {
    next ??= new Promise<string>((resolve, reject) => {
      setImmediate(() => {
        next = null; // whoever asks from now on gets a read that starts after them
        currentToken(db, kind).then(resolve, reject);
      });
    });
    return next;
  };
}

/** Roughly what an answer holds in memory: its JSON size, plus the key and the entry itself. */
function sizeOf(key: string, value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '') * 2 + key.length * 2 + 64;
}

/**
 * `maxEntries` 0 turns the cache off: every request runs its search. `maxBytes` bounds the memory
 * the answers hold (estimated), whatever their size: the least recently used go first.
 */
export function createSearchCache(
  database: Database,
  maxEntries: number,
  maxBytes = 64 * 1024 * 1024,
): SearchCache {
  const { db, kind } = database;
  // A Map keeps insertion order; re-inserting on a hit makes its first key the least recently used.
  const entries = new Map<string, Entry>();
  const inflight = new Map<string, Promise<unknown>>();
  const tokenNow = sharedTokens(db, kind);
  let hits = 0;
  let misses = 0;
  let bytes = 0;

  const drop = (key: string) => {
    const old = entries.get(key);
    if (!old) return;
    bytes -= old.bytes;
    entries.delete(key);
  };

  async function fill<T>(key: string, token: string, compute: () => Promise<T>): Promise<T> {
    const value = await compute();
    if ((await tokenNow()) === token) {
      const size = sizeOf(key, value);
      drop(key);
      // An answer bigger than a quarter of the budget would evict too much: serve it uncached.
      if (size > maxBytes / 4) return value;
      entries.set(key, { token, value, bytes: size });
      bytes += size;
      while (entries.size > maxEntries || bytes > maxBytes) drop(entries.keys().next().value!);
    }
    return value;
  }

  return {
    async get<T>(key: string, compute: () => Promise<T>): Promise<T> {
      if (maxEntries === 0) return compute();
      const token = await tokenNow();
      const entry = entries.get(key);
      if (entry && entry.token === token) {
        hits++;
        entries.delete(key);
        entries.set(key, entry);
        return entry.value as T;
      }
      misses++;
      const flightKey = `${token}\n${key}`;
      const running = inflight.get(flightKey);
      if (running) return running as Promise<T>;
      const filling = fill(key, token, compute).finally(() => inflight.delete(flightKey));
      inflight.set(flightKey, filling);
      return filling;
    },
    stats: () => ({ hits, misses, entries: entries.size, bytes }),
  };
}
