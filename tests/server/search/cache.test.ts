import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { createEventStore } from '../../../server/events/store.ts';
import { createSearchCache } from '../../../server/search/cache.ts';
import { createTestDatabase, storageMode, type TestDatabase } from '../../helpers/storage.ts';

const store = createEventStore([]);
const EVENT = `insert into events (stream_id, stream_version, type, data)
  values ('probe-' || gen_random_uuid(), 1, 'ItemSaved', '{"user_id":1,"target_type":"cat","target_id":1}')`;

describe('search cache', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await sql`create table cache_probe (n int)`.execute(t.database.db);
  });
  afterAll(async () => t.drop());

  /** A write as the app makes them: read-table rows and their events in one transaction. */
  const write = (n: number) =>
    t.database.db.transaction().execute(async (trx) => {
      await sql`insert into cache_probe values (${n})`.execute(trx);
      await store.append(trx, `probe-${n}-${Math.random()}`, 'any', [
        { type: 'ItemSaved', data: { user_id: n, target_type: 'cat', target_id: n } },
      ]);
    });
  const counted = () => {
    let calls = 0;
    const compute = async () => {
      calls++;
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from cache_probe`.execute(
        t.database.db,
      );
      return rows[0]!.n;
    };
    return { compute, calls: () => calls };
  };

  it('answers from the cache while nothing commits, and recomputes after any commit', async () => {
    const cache = createSearchCache(t.database, 10);
    const probe = counted();
    expect(await cache.get('k', probe.compute)).toBe(0);
    expect(await cache.get('k', probe.compute)).toBe(0);
    expect(probe.calls()).toBe(1);
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, entries: 1 });

    await write(1);
    expect(await cache.get('k', probe.compute)).toBe(1);
    expect(probe.calls()).toBe(2);
  });

  it('does not keep an answer when something committed while it was computed', async () => {
    const cache = createSearchCache(t.database, 10);
    let calls = 0;
    const racing = async () => {
      calls++;
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from cache_probe`.execute(
        t.database.db,
      );
      if (calls === 1) await write(2); // a commit lands between the search and its storing
      return rows[0]!.n;
    };
    const first = await cache.get('k', racing);
    const second = await cache.get('k', racing);
    expect(calls).toBe(2);
    expect(second).toBe(first + 1);
  });

  it('shares one computation between simultaneous requests for the same key', async () => {
    const cache = createSearchCache(t.database, 10);
    const probe = counted();
    const answers = await Promise.all(Array.from({ length: 8 }, () => cache.get('same', probe.compute)));
    expect(new Set(answers).size).toBe(1);
    expect(probe.calls()).toBe(1);
  });

  it('keeps at most its number of entries, dropping the least recently used', async () => {
    const cache = createSearchCache(t.database, 2);
    const probe = counted();
    await cache.get('a', probe.compute);
    await cache.get('b', probe.compute);
    await cache.get('a', probe.compute); // a is now the most recent
    await cache.get('c', probe.compute); // drops b
    expect(cache.stats().entries).toBe(2);
    const before = probe.calls();
    await cache.get('a', probe.compute);
    expect(probe.calls()).toBe(before);
    await cache.get('b', probe.compute);
    expect(probe.calls()).toBe(before + 1);
  });

  it('holds no more answers than its byte budget, dropping the least recently used', async () => {
    const budget = 40_000;
    const cache = createSearchCache(t.database, 1000, budget);
    const answer = (i: number) => async () => ({ i, text: 'x'.repeat(2_000) });
    for (let i = 0; i < 50; i++) await cache.get(`k${i}`, answer(i));
    const { entries, bytes } = cache.stats();
    expect(bytes).toBeLessThanOrEqual(budget);
    expect(entries).toBeGreaterThan(0);
    expect(entries).toBeLessThan(50);
    // The newest answers stayed; the oldest went.
    let recomputed = 0;
    await cache.get('k49', async () => (recomputed++, null));
    await cache.get('k0', async () => (recomputed++, null));
    expect(recomputed).toBe(1);
    // An answer too big for the budget is served, not cached.
    const big = await cache.get('big', async () => 'y'.repeat(budget));
    expect(big).toHaveLength(budget);
    expect(cache.stats().bytes).toBeLessThanOrEqual(budget);
  });

  it('keeps its answers across commits that append no event', async () => {
    const cache = createSearchCache(t.database, 10);
    let calls = 0;
    const compute = async () => ++calls;
    await cache.get('k', compute);
    await sql`create table if not exists unrelated (n int)`.execute(t.database.db);
    await sql`insert into unrelated values (1)`.execute(t.database.db);
    await cache.get('k', compute);
    expect(calls).toBe(1);
  });

  it.skipIf(storageMode() !== 'postgres')(
    'keeps its answers while another database on the server commits',
    async () => {
      const cache = createSearchCache(t.database, 10);
      let calls = 0;
      const compute = async () => ++calls;
      const other = await createTestDatabase();
      const client = new pg.Client({ connectionString: other.url! });
      await client.connect();
      try {
        await client.query('begin');
        await client.query(EVENT);
        await cache.get('k', compute); // the other database's transaction is running
        await client.query('commit');
        await client.query(EVENT);
        await cache.get('k', compute);
        expect(calls).toBe(1);
      } finally {
        await client.end();
        await other.drop();
      }
    },
  );

  it('computes every time when turned off', async () => {
    const cache = createSearchCache(t.database, 0);
    const probe = counted();
    await cache.get('k', probe.compute);
    await cache.get('k', probe.compute);
    expect(probe.calls()).toBe(2);
  });

  it.skipIf(storageMode() !== 'postgres')(
    'sees a transaction that was running when the answer was stored once it commits',
    async () => {
      const cache = createSearchCache(t.database, 10);
      const probe = counted();
      const other = new pg.Client({ connectionString: t.url! });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('insert into cache_probe values (3)');
        await other.query(EVENT);
        const before = await cache.get('open', probe.compute);
        expect(await cache.get('open', probe.compute)).toBe(before);
        await other.query('commit');
        expect(await cache.get('open', probe.compute)).toBe(before + 1);
      } finally {
        await other.end();
      }
    },
  );
});
