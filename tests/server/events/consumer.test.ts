import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { createEventStore } from '../../../server/events/store.ts';
import {
  consumeBatch,
  headCursor,
  readAfter,
  START,
  startCheckpointedConsumer,
  type Cursor,
} from '../../../server/events/consumer.ts';
import type { NewEvent, RecordedEvent } from '../../../server/events/types.ts';
import { createTestDatabase, storageMode, type TestDatabase } from '../../helpers/storage.ts';

const ev = (n: number): NewEvent => ({
  type: 'ItemSaved',
  data: { user_id: n, target_type: 'cat', target_id: n },
});
const store = createEventStore([]);

/**
 * Polls until `check` passes or 10 s have gone by. The horizon can stand still for a moment for
 * reasons outside the test (autovacuum analysing this database, a transaction elsewhere that ended
 * between the snapshot and the look at pg_stat_activity), never for long.
 */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

describe('async consumers on the (transaction_id, position) cursor', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t.drop());

  it.skipIf(storageMode() !== 'postgres')(
    'delivers an event committed after a later-positioned one, exactly once and in order',
    async () => {
      // Two raw connections so the two transactions truly interleave.
      const a = new pg.Client({ connectionString: t.url! });
      const b = new pg.Client({ connectionString: t.url! });
      await a.connect();
      await b.connect();
      const insert = `insert into events (stream_id, stream_version, type, data) values ($1, 1, 'ItemSaved', $2) returning global_position`;
      try {
        await a.query('begin');
        const first = await a.query(insert, [
          'ooo-a',
          JSON.stringify({ user_id: 1, target_type: 'cat', target_id: 1 }),
        ]);
        await b.query('begin');
        const second = await b.query(insert, [
          'ooo-b',
          JSON.stringify({ user_id: 2, target_type: 'cat', target_id: 2 }),
        ]);
        expect(Number(second.rows[0].global_position)).toBeGreaterThan(Number(first.rows[0].global_position));
        await b.query('commit'); // the later position commits first

        const delivered: RecordedEvent[] = [];
        const consumer = {
          name: 'ooo-test',
          handle: async (_: unknown, events: RecordedEvent[]) => void delivered.push(...events),
        };
        await consumeBatch(t.database, consumer); // runs while A is still open
        expect(delivered.map((e) => e.streamId)).toEqual([]); // B is held back: A is older and still running

        await a.query('commit');
        await eventually(async () => {
          await consumeBatch(t.database, consumer);
          return delivered.length >= 2;
        });
        const ids = delivered.map((e) => e.streamId);
        expect(ids).toEqual(['ooo-a', 'ooo-b']);
        // Delivered in (transaction_id, position) order.
        const keys = delivered.map((e) => [BigInt(e.transactionId), e.position] as const);
        const sorted = [...keys].sort((x, y) => (x[0] === y[0] ? x[1] - y[1] : x[0] < y[0] ? -1 : 1));
        expect(keys).toEqual(sorted);
      } finally {
        await a.end();
        await b.end();
      }
    },
  );

  it('orders transaction ids as numbers, not text (9 before 10)', async () => {
    const fresh = await createTestDatabase();
    try {
      const { db } = fresh.database;
      // Transaction ids set by hand, below any real one, with a digit-count boundary between them.
      await sql`
        insert into events (stream_id, stream_version, type, data, transaction_id)
        values ('digits-b', 1, 'ItemSaved', '{"user_id":1,"target_type":"cat","target_id":1}', '10'),
               ('digits-a', 1, 'ItemSaved', '{"user_id":1,"target_type":"cat","target_id":2}', '9')`.execute(
        db,
      );
      const events = await readAfter(db, START, 10);
      expect(events.map((e) => e.transactionId)).toEqual(['9', '10']);
      expect(await headCursor(db)).toEqual({ transactionId: '10', position: events[1]!.position });
      expect(
        (await readAfter(db, { transactionId: '9', position: events[0]!.position }, 10)).map(
          (e) => e.streamId,
        ),
      ).toEqual(['digits-b']);
    } finally {
      await fresh.drop();
    }
  });

  it('N concurrent writers, one consumer: every event delivered exactly once', async () => {
    const seen = new Map<number, number>();
    const loop = await startCheckpointedConsumer(
      t.database,
      {
        name: 'stress',
        batchSize: 37,
        handle: async (_trx, events) =>
          events.forEach((e) => seen.set(e.position, (seen.get(e.position) ?? 0) + 1)),
      },
      { pollMs: 20 },
    );
    const writers = 8;
    const perWriter = 40;
    const positions: number[] = [];
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        for (let i = 0; i < perWriter; i++) {
          const r = await store.append(t.database.db, `stress-${w}`, 'any', [ev(w * 1000 + i)]);
          positions.push(r.events[0]!.position);
        }
      }),
    );
    await loop.drain();
    await loop.stop();
    expect(positions).toHaveLength(writers * perWriter);
    for (const p of positions) expect(seen.get(p)).toBe(1);
  });

  it('a checkpoint survives a restart: no redelivery and no gap', async () => {
    const handled: number[] = [];
    const consumer = {
      name: 'restart',
      batchSize: 5,
      handle: async (_: unknown, events: RecordedEvent[]) =>
        void handled.push(...events.map((e) => e.position)),
    };
    for (let i = 0; i < 12; i++) await store.append(t.database.db, 'restart-1', 'any', [ev(i)]);
    const first = await startCheckpointedConsumer(t.database, consumer, { pollMs: 20 });
    await first.drain();
    await first.stop();
    const countAfterFirst = handled.length;
    for (let i = 0; i < 7; i++) await store.append(t.database.db, 'restart-2', 'any', [ev(100 + i)]);
    const second = await startCheckpointedConsumer(t.database, consumer, { pollMs: 20 });
    await second.drain();
    await second.stop();
    expect(new Set(handled).size).toBe(handled.length);
    const all = await readAfter(t.database.db, START, 10_000);
    expect(handled.sort((x, y) => x - y)).toEqual(all.map((e) => e.position).sort((x, y) => x - y));
    expect(handled.length - countAfterFirst).toBe(7);
  });

  it('a failing effect does not advance the checkpoint', async () => {
    await store.append(t.database.db, 'fail-1', 'any', [ev(1)]);
    const visible = async () =>
      (await readAfter(t.database.db, START, 10_000)).some((e) => e.streamId === 'fail-1');
    expect(await eventually(visible)).toBe(true);
    let fail = true;
    const got: number[] = [];
    const consumer = {
      name: 'flaky',
      handle: async (_: unknown, events: RecordedEvent[]) => {
        if (fail) throw new Error('queue down');
        got.push(...events.map((e) => e.position));
      },
    };
    await expect(consumeBatch(t.database, consumer)).rejects.toThrow('queue down');
    fail = false;
    while ((await consumeBatch(t.database, consumer)) > 0) {
      /* drain */
    }
    const all = await readAfter(t.database.db, START as Cursor, 10_000);
    expect(got).toEqual(all.map((e) => e.position));
  });
});
