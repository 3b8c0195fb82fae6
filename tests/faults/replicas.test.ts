import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Reader } from '../../server/db/read-pools.ts';
import type { DB } from '../../server/db/schema.ts';
import { openDatabase } from '../../server/db/database.ts';
import { createSearchCache } from '../../server/search/cache.ts';
import {
  json,
  register,
  startAppProcess,
  startPostgres,
  startReplica,
  waitFor,
  type AppProcess,
  type PostgresInstance,
  type ReplicaInstance,
} from './instances.ts';

const MAX_LAG_MS = 3000;
const WAIT_MS = 300;

// An api process reading on a real streaming replica of its primary (pg_basebackup -R), one pair
// for the whole file. Pausing the replica's replay freezes what it shows, which tells which server
// answered a read.
describe('reads on a streaming replica', () => {
  let primary: PostgresInstance;
  let replica: ReplicaInstance;
  let api: AppProcess;
  let token: string;
  let cats = 0;

  beforeAll(async () => {
    primary = await startPostgres();
    replica = await startReplica(primary);
    api = await startAppProcess('api', {
      DATABASE_URL: primary.url,
      DATABASE_REPLICA_URLS: replica.url,
      REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
      REPLICA_WAIT_MS: String(WAIT_MS),
    });
    token = (await register(api.baseUrl, 'replicated')).token;
    await waitFor(async () => (await rotation()) === 1, 20_000, 'the replica to join the rotation');
  });
  afterAll(async () => {
    await api?.kill('SIGTERM');
    await replica?.destroy();
    await primary?.destroy();
  });

  /** db_replica_in_rotation from /metrics: 1, 0, or null when it is not reported. */
  async function rotation(): Promise<number | null> {
    const metrics = await (await fetch(`${api.baseUrl}/metrics`)).text();
    const found = /^db_replica_in_rotation\{[^}]*\} (\d+)/m.exec(metrics);
    return found ? Number(found[1]) : null;
  }

  /** Adds a cat with a name of its own; answers its id, its name and the write's log position. */
  async function addCat(): Promise<{ id: number; name: string; position: string }> {
    const name = `Streamed${String.fromCharCode(97 + cats)}${String.fromCharCode(97 + ((cats * 7) % 26))} Tabby`;
    cats++;
    const res = await fetch(`${api.baseUrl}/api/cats`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        name,
        bodega_name: `Replica Deli ${cats}`,
        address: `${cats} Standby St`,
        latitude: 40.72,
        longitude: -73.99,
      }),
    });
    expect(res.status).toBe(201);
    const position = res.headers.get('x-log-position');
    expect(position).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    return { id: (await json(res)).cat.id, name, position: position! };
  }

  /** Whether a search for `name` finds it; `headers` e.g. the writer's log position. */
  async function searchFinds(name: string, headers: Record<string, string> = {}): Promise<boolean> {
    const res = await fetch(`${api.baseUrl}/api/search/cats?q=${encodeURIComponent(name)}`, { headers });
    expect(res.status).toBe(200);
    const body = await json(res);
    return body.cats.some((c: { name: string }) => c.name === name);
  }

  /** How many cats the public map counts around the cats' corner. */
  async function mapTotal(): Promise<number> {
    const res = await fetch(`${api.baseUrl}/api/map?north=40.8&south=40.6&east=-73.9&west=-74.1&zoom=12`);
    expect(res.status).toBe(200);
    return (await json(res)).total;
  }

  /**
   * With the replica's replay paused, a new cat is on the primary only: public reads that do not
   * see it were answered by the replica. Reads carrying the writer's position, and a signed-in
   * reader's page, see it at once (from the primary).
   */
  async function proveReadsOnTheReplica(): Promise<void> {
    await replica.pauseReplay();
    try {
      const before = await mapTotal();
      const cat = await addCat();
      const paused = Date.now();
      expect(await searchFinds(cat.name)).toBe(false);
      expect((await fetch(`${api.baseUrl}/api/cats/${cat.id}`)).status).toBe(404);
      expect(await mapTotal()).toBe(before);

      const started = Date.now();
      expect(await searchFinds(cat.name, { 'x-log-position': cat.position })).toBe(true);
      expect(Date.now() - started).toBeLessThan(WAIT_MS + 1500);
      const own = await fetch(`${api.baseUrl}/api/cats/${cat.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(own.status).toBe(200);
      // All of the above happened while the replica was within the lag bound, still in rotation.
      expect(Date.now() - paused).toBeLessThan(MAX_LAG_MS);
    } finally {
      await replica.resumeReplay();
    }
  }

  it('serves public reads from the replica, and the writer reads their own write at once', async () => {
    await proveReadsOnTheReplica();
    // Once replay resumes the replica catches up, and everyone sees the cat.
    const cat = await addCat();
    await waitFor(() => searchFinds(cat.name), 10_000, 'the replica to show the new cat');
  });

  it('keeps answering reads from the primary while the replica is down, and takes it back', async () => {
    const cat = await addCat();
    await waitFor(() => searchFinds(cat.name), 10_000, 'the replica to catch up');
    await replica.stop('immediate');
    try {
      // At once, before any check has noticed: statements on the dead replica go to the primary.
      for (let i = 0; i < 5; i++) {
        expect(await searchFinds(cat.name)).toBe(true);
        expect((await fetch(`${api.baseUrl}/api/cats/${cat.id}`)).status).toBe(200);
        expect((await fetch(`${api.baseUrl}/api/reviews/cat/${cat.id}`)).status).toBe(200);
      }
      await waitFor(async () => (await rotation()) === 0, 10_000, 'the dead replica to leave the rotation');
      const metrics = await (await fetch(`${api.baseUrl}/metrics`)).text();
      expect(metrics).toMatch(/^db_replica_up\{[^}]*\} 0/m);
      const later = await addCat();
      expect(await searchFinds(later.name)).toBe(true);
    } finally {
      await replica.start();
    }
    await waitFor(async () => (await rotation()) === 1, 20_000, 'the replica to rejoin the rotation');
    await proveReadsOnTheReplica();
  });

  it('takes a replica whose replay stalls beyond REPLICA_MAX_LAG_MS out of the rotation', async () => {
    await replica.pauseReplay();
    try {
      const cat = await addCat();
      await waitFor(
        async () => (await rotation()) === 0,
        MAX_LAG_MS + 5000,
        'the stalled replica to leave the rotation',
      );
      const metrics = await (await fetch(`${api.baseUrl}/metrics`)).text();
      const lag = Number(/^db_replica_lag_seconds\{[^}]*\} ([\d.]+)/m.exec(metrics)?.[1]);
      expect(lag * 1000).toBeGreaterThan(MAX_LAG_MS);
      // Its public reads now come from the primary, which has the cat.
      expect(await searchFinds(cat.name)).toBe(true);
      expect((await fetch(`${api.baseUrl}/api/cats/${cat.id}`)).status).toBe(200);
    } finally {
      await replica.resumeReplay();
    }
    await waitFor(async () => (await rotation()) === 1, 10_000, 'the caught-up replica to rejoin');
  });

  it('keeps cached search answers from a replica fresh across a transaction that was running', async () => {
    const primaryDb = await openDatabase({ url: primary.url });
    const replicaDb = new Kysely<DB>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: replica.url, max: 2 }) }),
    });
    const slow = new pg.Client({ connectionString: primary.url });
    await slow.connect();
    const probe = (n: number) =>
      `insert into events (stream_id, stream_version, type, data) values ('probe-${n}-' || gen_random_uuid(), 1,
        'ItemSaved', '{"user_id":1,"target_type":"cat","target_id":1}')`;
    const replayed = async () => {
      const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(
        primaryDb.db,
      );
      await waitFor(
        async () =>
          (
            await sql<{
              ok: boolean;
            }>`select pg_last_wal_replay_lsn() >= ${rows[0]!.lsn}::pg_lsn as ok`.execute(replicaDb)
          ).rows[0]!.ok,
        10_000,
        'the replica to replay the primary',
      );
    };
    const count = async (db: Kysely<DB>) =>
      Number((await sql<{ n: string }>`select count(*) as n from events`.execute(db)).rows[0]!.n);
    try {
      // Each form of the token, read on the replica: the standby's, and the primary's for contrast.
      for (const standby of [true, false]) {
        const reader: Reader = { db: replicaDb, server: 'replica', standby };
        const cache = createSearchCache(primaryDb, 10);
        await slow.query('begin');
        await slow.query(probe(1)); // draws a position and stays open
        await sql.raw(probe(2)).execute(primaryDb.db); // a later position, committed
        await replayed();
        const before = await cache.get('events', count, reader);
        expect(await cache.get('events', count, reader)).toBe(before);
        await slow.query('commit');
        await replayed();
        const after = await cache.get('events', count, reader);
        // The primary's form lists running transactions from pg_current_snapshot(), which a standby
        // leaves empty: it would serve the answer that missed the slow transaction's event.
        const now = await count(replicaDb);
        expect(now).toBeGreaterThan(before);
        if (standby) expect(after).toBe(now);
        else expect(after).toBe(before);
      }
    } finally {
      await slow.end();
      await replicaDb.destroy();
      await primaryDb.close();
    }
  });
});
