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
// On a replica (a hot standby) the token is read on the replica the answer is computed on, so an
// equal token means the same state there too, and a reader that needs a later log position (and so
// was sent to a replica that has replayed it) gets a token of that state. A standby's snapshot does
// not list the primary's running transactions (pg_current_snapshot()'s xip is empty there; only its
// xmin is kept), so its token counts instead the events at or above the snapshot's xmin: a
// transaction still running then has a transaction id at or above it, or (if the standby had not
// yet replayed anything of it) draws its positions after every one the snapshot sees; either way its
// commit changes the token. Events are never deleted, so the count only grows. All servers replay
// one history, so equal tokens from two replicas mean equal answers; an answer from a replica
// further behind does not replace one from further ahead, so a lagging replica cannot push the
// others' answers out of the cache.
//
// An answer is stored only when the token taken after computing it equals the one taken before:
// then nothing that matters committed in between, and every statement of the search saw the state
// the token stands for. Concurrent requests for the same key under the same token share one
// computation, and requests arriving together share one token read, started after all arrived.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Reader } from '../db/read-pools.ts';
import type { DB } from '../db/schema.ts';

export type SearchCacheStats = { hits: number; misses: number; entries: number; bytes: number };

export type SearchCache = {
  /**
   * The answer for `key` as `reader`'s server (the primary unless given) has it: from the cache
   * when nothing has committed since it was computed, else `compute` run on that server.
   */
  get<T>(key: string, compute: (db: Kysely<DB>) => Promise<T>, reader?: Reader): Promise<T>;
  stats(): SearchCacheStats;
};

/** `position`: the newest event position the answer's state had (the token's first part). */
type Entry = { token: string; position: number; value: unknown; bytes: number };

/** Which statement reads a server's token. */
type TokenKind = Database['kind'] | 'standby';

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

async function currentToken(db: Kysely<DB>, kind: TokenKind): Promise<string> {
  // Embedded storage runs one transaction at a time, so nothing else can be running.
  const running =
    kind === 'pglite'
      ? sql`''`
      : kind === 'standby'
        ? sql`(select x.xmin::text || '+' || (select count(*) from events where transaction_id >= x.xmin)::text
            from (select pg_snapshot_xmin(pg_current_snapshot()) as xmin) as x)`
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
function sharedTokens(db: Kysely<DB>, kind: TokenKind): () => Promise<string> {
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
  const primary: Reader = { db: database.db, server: 'primary', standby: false };
  // A Map keeps insertion order; re-inserting on a hit makes its first key the least recently used.
  const entries = new Map<string, Entry>();
  const inflight = new Map<string, Promise<unknown>>();
  /** Each server's token reads, shared by the requests reading on it. */
  const tokenReaders = new Map<string, () => Promise<string>>();
  const tokenNow = (reader: Reader) => {
    let read = tokenReaders.get(reader.server);
    if (!read) {
      read = sharedTokens(reader.db, reader.standby ? 'standby' : database.kind);
      tokenReaders.set(reader.server, read);
    }
    return read();
  };
  let hits = 0;
  let misses = 0;
  let bytes = 0;

  const drop = (key: string) => {
    const old = entries.get(key);
    if (!old) return;
    bytes -= old.bytes;
    entries.delete(key);
  };

  async function fill<T>(
    key: string,
    token: string,
    reader: Reader,
    compute: (db: Kysely<DB>) => Promise<T>,
  ): Promise<T> {
    const value = await compute(reader.db);
    const position = Number(token.split(':')[0]);
    const held = entries.get(key);
    if ((await tokenNow(reader)) === token && !(held && held.position > position)) {
      const size = sizeOf(key, value);
      drop(key);
      // An answer bigger than a quarter of the budget would evict too much: serve it uncached.
      if (size > maxBytes / 4) return value;
      entries.set(key, { token, position, value, bytes: size });
      bytes += size;
      while (entries.size > maxEntries || bytes > maxBytes) drop(entries.keys().next().value!);
    }
    return value;
  }

  return {
    async get<T>(key: string, compute: (db: Kysely<DB>) => Promise<T>, reader = primary): Promise<T> {
      if (maxEntries === 0) return compute(reader.db);
      const token = await tokenNow(reader);
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
      const filling = fill(key, token, reader, compute).finally(() => inflight.delete(flightKey));
      inflight.set(flightKey, filling);
      return filling;
    },
    stats: () => ({ hits, misses, entries: entries.size, bytes }),
  };
}
