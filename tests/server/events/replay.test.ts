import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../server/db/schema.ts';
import { createEventStore, writeTransaction } from '../../../server/events/store.ts';
import { openDatabase } from '../../../server/db/database.ts';
import type { Projection } from '../../../server/events/projection.ts';
import {
  replay,
  ReplayBusyError,
  ReplaySwapRefusedError,
  type ReplayResult,
} from '../../../server/events/replay.ts';
import {
  createEventCountsTable,
  eventCount,
  eventCountsProjection,
} from '../../helpers/event-counts-projection.ts';
import type { NewEvent } from '../../../server/events/types.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/storage.ts';

const store = createEventStore([eventCountsProjection]);
const events: NewEvent[] = [
  { type: 'ItemSaved', data: { user_id: 1, target_type: 'cat', target_id: 1 } },
  { type: 'ItemUnsaved', data: { user_id: 1, target_type: 'cat', target_id: 1 } },
  { type: 'BodegaVerified', data: { bodega_id: 1, is_verified: true } },
];

async function shadowSchemas(t: TestDatabase): Promise<string[]> {
  const { rows } = await sql<{ nspname: string }>`
    select nspname from pg_namespace where nspname like 'replay\_shadow%' order by 1`.execute(t.database.db);
  return rows.map((r) => r.nspname);
}

describe('replay of the demo projection', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await createEventCountsTable(t.database.db);
    for (let i = 0; i < 60; i++) await store.append(t.database.db, `s-${i % 7}`, 'any', [events[i % 3]!]);
  });
  afterAll(async () => t.drop());

  it('--verify passes when the read tables match the log', async () => {
    const result = await replay(t.database, [eventCountsProjection], { verify: true });
    expect(result.events).toBe(60);
    expect(result.differences).toEqual([
      { table: 'event_type_counts', liveRows: 3, shadowRows: 3, same: true },
    ]);
  });

  it('--verify fails on a corrupted read row', async () => {
    await sql`update event_type_counts set count = count + 1 where type = 'ItemSaved'`.execute(t.database.db);
    const result = await replay(t.database, [eventCountsProjection], { verify: true });
    expect(result.differences[0]!.same).toBe(false);
  });

  it('a rebuild repairs the table, keeps its index names and leaves no shadow behind', async () => {
    const indexesBefore = await sql<{
      indexname: string;
    }>`select indexname from pg_indexes where tablename = 'event_type_counts' order by 1`.execute(
      t.database.db,
    );
    const progress: number[] = [];
    const result = await replay(t.database, [eventCountsProjection], {
      onProgress: (p) => progress.push(p.done),
    });
    expect(result.differences[0]!.same).toBe(false); // compared before the swap
    expect(result.events).toBe(60);
    // Progress is reported per batch read below the log's horizon; a transaction elsewhere on the
    // server can hold that back, and the final locked step then applies everything.
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.every((done) => done <= 60)).toBe(true);
    const verify = await replay(t.database, [eventCountsProjection], { verify: true });
    expect(verify.differences.every((d) => d.same)).toBe(true);
    const indexesAfter = await sql<{
      indexname: string;
    }>`select indexname from pg_indexes where tablename = 'event_type_counts' order by 1`.execute(
      t.database.db,
    );
    expect(indexesAfter.rows).toEqual(indexesBefore.rows);
    expect(await shadowSchemas(t)).toEqual([]);
  });

  it('keeps writes that arrive during the replay', async () => {
    const writes = (async () => {
      for (let i = 0; i < 30; i++) await store.append(t.database.db, 'during', 'any', [events[0]!]);
    })();
    await replay(t.database, [eventCountsProjection]);
    await writes;
    const verify = await replay(t.database, [eventCountsProjection], { verify: true });
    expect(verify.differences.every((d) => d.same)).toBe(true);
    expect(await eventCount(t.database.db, 'ItemSaved')).toBe(20 + 30);
  });
});

describe('replay safety', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await createEventCountsTable(t.database.db);
    for (let i = 0; i < 60; i++) await store.append(t.database.db, `s-${i % 7}`, 'any', [events[i % 3]!]);
  });
  afterAll(async () => t.drop());

  const clean = async () => {
    const verify = await replay(t.database, [eventCountsProjection], { verify: true });
    expect(verify.differences).toEqual([
      { table: 'event_type_counts', liveRows: 3, shadowRows: 3, same: true },
    ]);
  };

  /**
   * The demo projection, calling `hook` (once) from inside a replay's own transaction: a point
   * every run reaches mid-way, whether its events come in the batches or in the final step.
   */
  const hooked = (hook: (trx: Kysely<DB>) => Promise<void>): Projection => {
    let called = false;
    return {
      ...eventCountsProjection,
      async apply(trx, event) {
        if (!called) {
          called = true;
          await hook(trx);
        }
        await eventCountsProjection.apply(trx, event);
      },
    };
  };

  it('runs one replay or verify at a time: a second refuses at once and the first is unharmed', async () => {
    let refused: unknown;
    let schemasDuring: string[] = [];
    const first = await replay(t.database, [
      hooked(async (trx) => {
        // Mid-run: its shadow exists, and a verify (or another replay) on the same database asks in.
        refused = await replay(t.database, [eventCountsProjection], { verify: true }).catch(
          (e: unknown) => e,
        );
        const { rows } = await sql<{ nspname: string }>`
            select nspname from pg_namespace where nspname like 'replay\_shadow%'`.execute(trx);
        schemasDuring = rows.map((r) => r.nspname);
      }),
    ]);
    expect(refused).toBeInstanceOf(ReplayBusyError);
    expect(String((refused as Error).message)).toMatch(/another replay or verify is running/i);
    expect(schemasDuring).toHaveLength(1);
    expect(schemasDuring[0]).toMatch(/^replay_shadow_[0-9a-f]+$/);
    expect(first.events).toBe(60);
    expect(await shadowSchemas(t)).toEqual([]);
    await clean();
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'excludes a replay from another process (its own connections)',
    async () => {
      const other = await openDatabase({ url: t.url, poolSize: 2 });
      try {
        let refused: unknown;
        await replay(t.database, [
          hooked(async () => {
            refused = await replay(other, [eventCountsProjection]).catch((e: unknown) => e);
          }),
        ]);
        expect(refused).toBeInstanceOf(ReplayBusyError);
        // Released at the end: the other side can run now.
        const after = await replay(other, [eventCountsProjection], { verify: true });
        expect(after.differences.every((d) => d.same)).toBe(true);
      } finally {
        await other.close();
      }
      await clean();
    },
  );

  it('drops shadow schemas left by crashed runs, and only those', async () => {
    await sql`create schema replay_shadow_0badc0ffee`.execute(t.database.db);
    await sql`create table replay_shadow_0badc0ffee.event_type_counts (type text)`.execute(t.database.db);
    await sql`create schema replay_shadow`.execute(t.database.db);
    await sql`create schema replay_shadow_keep_me`.execute(t.database.db);
    try {
      await replay(t.database, [eventCountsProjection], { verify: true });
      expect(await shadowSchemas(t)).toEqual(['replay_shadow_keep_me']);
    } finally {
      await sql`drop schema if exists replay_shadow_keep_me`.execute(t.database.db);
    }
  });

  it('never lets a shadow batch fall through to a live table', async () => {
    await sql`create table replay_probe (n int)`.execute(t.database.db);
    // A projection that writes a table it did not declare: with no shadow of it, that must fail.
    const leaky: Projection = {
      ...eventCountsProjection,
      async apply(trx, event) {
        await eventCountsProjection.apply(trx, event);
        await sql`insert into replay_probe (n) values (1)`.execute(trx);
      },
    };
    await expect(replay(t.database, [leaky])).rejects.toThrow(/replay_probe/);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from replay_probe`.execute(
      t.database.db,
    );
    expect(rows[0]!.n).toBe(0);
    expect(await shadowSchemas(t)).toEqual([]);
    await clean();
  });

  it('stops the whole rebuild when one projection fails mid-way, leaving the live tables as they were', async () => {
    let applied = 0;
    const failing: Projection = {
      name: 'failing',
      tables: [],
      handles: eventCountsProjection.handles,
      async apply() {
        if (++applied === 25) throw new Error('projection failed on its 25th event');
      },
    };
    const progress: number[] = [];
    await expect(
      replay(t.database, [eventCountsProjection, failing], {
        batchSize: 4,
        onProgress: (p) => progress.push(p.done),
      }),
    ).rejects.toThrow(/25th event/);
    // Progress counts the batches every projection has applied: 24 events of the failing one.
    expect(progress.at(-1)).toBeLessThanOrEqual(24);
    expect(await shadowSchemas(t)).toEqual([]);
    await clean();
  });

  it('refuses a swap that would drop most of a large table, unless forced', async () => {
    await sql`
      insert into event_type_counts (type, count)
      select 'Stray' || i, 1 from generate_series(1, 200) i`.execute(t.database.db);
    const refused = await replay(t.database, [eventCountsProjection]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ReplaySwapRefusedError);
    const message = (refused as Error).message;
    expect(message).toMatch(/--force/);
    expect(message).toMatch(/event_type_counts\s+live\s+203 rows, rebuilt\s+3 rows: DIFFERENT/);
    const count = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from event_type_counts`.execute(t.database.db))
        .rows[0]!.n;
    expect(await count()).toBe(203);
    expect(await shadowSchemas(t)).toEqual([]);

    const forced: ReplayResult = await replay(t.database, [eventCountsProjection], { force: true });
    expect(forced.differences[0]).toMatchObject({ liveRows: 203, shadowRows: 3 });
    expect(await count()).toBe(3);
    await clean();
  });

  it('lets a writer in flight finish before the swap instead of deadlocking with it', async () => {
    // A write that reads the read table, then appends a moment later. The swap must not take a lock
    // this writer then needs while it waits for the writer's read lock: it waits at the gate.
    let release!: () => void;
    const paused = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const before = await eventCount(t.database.db, 'ItemSaved');
    const writer = writeTransaction(t.database.db, async (tx) => {
      await sql`select count(*) from event_type_counts`.execute(tx.trx);
      entered();
      await paused;
      await store.append(tx, 'gate', 'any', [events[0]!]);
    });
    await inside;
    // (Embedded storage has one session: there the replay simply waits for the writer's transaction.)
    const replaying = replay(t.database, [eventCountsProjection], { lockTimeoutMs: 5000 });
    setTimeout(release, 1500);
    await expect(writer).resolves.toBeUndefined();
    const result = await replaying;
    // On Postgres the swap waited at the gate and applied the writer's event itself.
    if (t.url) expect(result.lockedEvents).toBeGreaterThanOrEqual(1);
    expect(await eventCount(t.database.db, 'ItemSaved')).toBe(before + 1);
    const verify = await replay(t.database, [eventCountsProjection], { verify: true });
    expect(verify.differences.every((d) => d.same)).toBe(true);
  });
});
