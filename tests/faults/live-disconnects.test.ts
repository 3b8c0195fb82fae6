import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import WebSocket from 'ws';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { projections } from '../../server/domains.ts';
import { createEventStore } from '../../server/events/store.ts';
import { streamIds, type NewEvent } from '../../server/events/types.ts';
import {
  startAppProcess,
  startPostgres,
  waitFor,
  type AppProcess,
  type PostgresInstance,
} from './instances.ts';

const EVENTS = Number(process.env.LIVE_FAULT_EVENTS ?? 5000);
const CLIENTS = 8;
const CATCH_UP_MS = Number(process.env.LIVE_FAULT_CATCH_UP_MS ?? 180_000);

/** The server's transactions that hold a transaction id, oldest first, and what each is doing. */
async function openTransactions(database: Database): Promise<string> {
  const { rows } = await sql<{ pid: number; xid: string; state: string; since: string; query: string }>`
    select pid, backend_xid::text as xid, state, (now() - xact_start)::text as since, left(query, 200) as query
    from pg_stat_activity
    where backend_xid is not null
    order by xact_start`.execute(database.db);
  return JSON.stringify(rows);
}

/** A stream client that keeps dropping its connection at random and resumes from its cursor. */
function flakyClient(wsUrl: string, random: () => number) {
  const seen = new Map<number, number>();
  let cursor: string | null = null;
  let socket: WebSocket | null = null;
  let stopped = false;
  let resets = 0;
  let reconnects = 0;
  const closeCodes: number[] = [];
  const resetSamples: string[] = [];
  let sentAfter: string | null = null;
  const connect = () => {
    if (stopped) return;
    sentAfter = cursor;
    socket = new WebSocket(cursor ? `${wsUrl}?after=${cursor}` : wsUrl);
    socket.on('message', (raw) => {
      const msg = JSON.parse(String(raw));
      if (msg.type === 'hello') {
        cursor ??= msg.cursor;
        return;
      }
      if (msg.type === 'reset') {
        resets++;
        if (resetSamples.length < 3) resetSamples.push(`${sentAfter} -> ${msg.cursor}`);
        return;
      }
      cursor = msg.cursor;
      if (msg.type === 'cat.added') seen.set(msg.data.id, (seen.get(msg.data.id) ?? 0) + 1);
    });
    socket.on('error', () => {});
    socket.on('close', (code) => {
      closeCodes.push(code);
      if (!stopped) setTimeout(connect, random() * 100);
    });
    // Drop the connection abruptly after a random while.
    setTimeout(
      () => {
        if (!stopped && socket?.readyState === WebSocket.OPEN) {
          reconnects++;
          socket.terminate();
        }
      },
      50 + random() * 400,
    );
  };
  connect();
  return {
    seen,
    stats: () => ({
      resets,
      reconnects,
      closes: closeCodes.length,
      serverCloses: closeCodes.filter((c) => c !== 1006),
      resetSamples,
    }),
    stop() {
      stopped = true;
      socket?.terminate();
    },
  };
}

describe('WebSocket clients dropping at random during a stream of 5,000 events', () => {
  let pg: PostgresInstance;
  let api: AppProcess;
  let database: Database;
  beforeAll(async () => {
    pg = await startPostgres();
    // Resuming is what is under test, so every gap must be replayable rather than answered with
    // `reset` (which a real client meets by refetching): the replay bound covers the whole stream.
    // Every client resumes from one address, hundreds of times: the per-address resume limit
    // (tested in tests/server/live/resumes.test.ts) is raised out of the way.
    api = await startAppProcess('all', {
      DATABASE_URL: pg.url,
      REDIS_URL: '',
      LIVE_REPLAY_LIMIT: String(EVENTS * 2),
      LIVE_RESUME_BURST: '10000',
      LIVE_RESUMES_PER_MINUTE: '100000',
    });
    database = await openDatabase({ url: pg.url, poolSize: 4 });
  });
  afterAll(async () => {
    await database?.close();
    await api?.kill();
    await pg?.destroy();
  });

  it('ends with every client holding every event exactly once', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const wsUrl = `${api.baseUrl.replace('http', 'ws')}/api/stream`;
    const clients = Array.from({ length: CLIENTS }, () => flakyClient(wsUrl, random));
    await new Promise((r) => setTimeout(r, 500));

    const store = createEventStore(projections);
    await store.append(database.db, streamIds.bodega(1), 0, [
      {
        type: 'BodegaAdded',
        data: {
          bodega_id: 1,
          name: 'Flaky Deli',
          address: '1 Flaky St',
          latitude: 40.7,
          longitude: -74,
          description: '',
          phone: '',
          hours: '',
          created_by: null,
        },
      },
    ]);
    const cat = (id: number): NewEvent => ({
      type: 'CatAdded',
      data: {
        cat_id: id,
        bodega_id: 1,
        created_by: null,
        name: `Flaky ${id}`,
        description: '',
        age: '',
        breed: '',
        sex: '',
        personality: '',
        color: '',
        weight: '',
        is_friendly: true,
      },
    });
    // Steady arrivals: batches of 25 cats, each batch one transaction, a little apart.
    for (let first = 1; first <= EVENTS; first += 25) {
      await database.db.transaction().execute(async (trx) => {
        for (let id = first; id < first + 25 && id <= EVENTS; id++)
          await store.append(trx, streamIds.cat(id), 0, [cat(id)]);
      });
      await new Promise((r) => setTimeout(r, 10));
    }

    try {
      await waitFor(
        async () => clients.every((c) => c.seen.size === EVENTS),
        CATCH_UP_MS,
        () =>
          `every client to catch up (seen: ${clients.map((c) => `${c.seen.size} ${JSON.stringify(c.stats())}`).join('; ')})`,
      );
    } catch (error) {
      // Replay stops at the oldest open transaction holding an id: name what was open then.
      const open = await openTransactions(database).catch((e: Error) => `not readable (${e.message})`);
      throw new Error(`${(error as Error).message}; open then: ${open}`, { cause: error });
    } finally {
      clients.forEach((c) => c.stop());
    }
    for (const c of clients) {
      expect(c.stats().resets).toBe(0);
      expect(c.stats().reconnects, JSON.stringify(c.stats())).toBeGreaterThan(0);
      const duplicates = [...c.seen.values()].filter((n) => n !== 1);
      expect(duplicates).toEqual([]);
      expect(c.seen.size).toBe(EVENTS);
    }
  });
});
