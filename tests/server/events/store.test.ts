import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventStore, EVENTS_CHANNEL, writeTransaction } from '../../../server/events/store.ts';
import {
  createEventCountsTable,
  eventCount,
  eventCountsProjection,
} from '../../helpers/event-counts-projection.ts';
import { ConcurrencyError } from '../../../server/errors.ts';
import type { NewEvent } from '../../../server/events/types.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/storage.ts';

const saved = (userId: number, targetId: number): NewEvent => ({
  type: 'ItemSaved',
  data: { user_id: userId, target_type: 'cat', target_id: targetId },
});

describe('event store append', () => {
  let t: TestDatabase;
  const store = createEventStore([eventCountsProjection]);
  beforeAll(async () => {
    t = await createTestDatabase();
    await createEventCountsTable(t.database.db);
  });
  afterAll(async () => t.drop());

  it('appends to a new stream and numbers versions from 1', async () => {
    const r = await store.append(t.database.db, 'saves-1', 0, [saved(1, 1), saved(1, 2)]);
    expect(r.nextVersion).toBe(2);
    expect(r.events.map((e) => e.streamVersion)).toEqual([1, 2]);
    expect(r.events[1]!.position).toBeGreaterThan(r.events[0]!.position);
  });

  it('rejects a stale expected version and appends nothing', async () => {
    const before = await t.database.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    await expect(store.append(t.database.db, 'saves-1', 1, [saved(1, 3)])).rejects.toBeInstanceOf(
      ConcurrencyError,
    );
    await expect(store.append(t.database.db, 'saves-1', 0, [saved(1, 3)])).rejects.toBeInstanceOf(
      ConcurrencyError,
    );
    const after = await t.database.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const stream = await t.database.db
      .selectFrom('streams')
      .selectAll()
      .where('stream_id', '=', 'saves-1')
      .executeTakeFirstOrThrow();
    expect(stream.version).toBe(2);
  });

  it('appends with the right expected version', async () => {
    const r = await store.append(t.database.db, 'saves-1', 2, [saved(1, 3)]);
    expect(r.nextVersion).toBe(3);
  });

  it('an idempotent retry appends nothing the second time', async () => {
    const first = await store.append(t.database.db, 'saves-2', 'any', [saved(2, 1)], {
      idempotencyKey: 'k-1',
    });
    const second = await store.append(t.database.db, 'saves-2', 'any', [saved(2, 1)], {
      idempotencyKey: 'k-1',
    });
    expect(first.duplicate).toBe(false);
    expect(second.duplicate).toBe(true);
    const rows = await t.database.db
      .selectFrom('events')
      .select('global_position')
      .where('stream_id', '=', 'saves-2')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('inline projections are visible as soon as the append commits', async () => {
    await store.append(t.database.db, 'saves-3', 'any', [saved(3, 1)]);
    const n = await t.database.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '=', 'ItemSaved')
      .executeTakeFirstOrThrow();
    expect(await eventCount(t.database.db, 'ItemSaved')).toBe(Number(n.n));
  });

  it('a failed transaction leaves neither events nor projection rows', async () => {
    const db = t.database.db;
    await expect(
      db.transaction().execute(async (trx) => {
        await store.append(trx, 'saves-9', 0, [saved(9, 1)]);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const rows = await db
      .selectFrom('events')
      .select('global_position')
      .where('stream_id', '=', 'saves-9')
      .execute();
    expect(rows).toHaveLength(0);
    const stream = await db
      .selectFrom('streams')
      .selectAll()
      .where('stream_id', '=', 'saves-9')
      .executeTakeFirst();
    expect(stream).toBeUndefined();
  });

  it('wakes listeners once a write through writeTransaction has committed, and not before', async () => {
    const heard: string[] = [];
    const unlisten = await t.database.listen(EVENTS_CHANNEL, (payload) => heard.push(payload));
    try {
      let position = 0;
      await writeTransaction(t.database.db, async (trx) => {
        const r = await store.append(trx, 'saves-notify', 0, [saved(7, 1), saved(7, 2)]);
        position = r.events[1]!.position;
        // Still inside the transaction: nothing may have been announced yet.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(heard).toEqual([]);
      });
      const deadline = Date.now() + 5000;
      while (!heard.includes(String(position)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(heard).toContain(String(position));

      // A rolled-back write announces nothing.
      heard.length = 0;
      await expect(
        writeTransaction(t.database.db, async (trx) => {
          await store.append(trx, 'saves-notify-2', 0, [saved(7, 3)]);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(heard).toEqual([]);
    } finally {
      await unlisten();
    }
  });

  it('undoes what a write transaction did outside the database only when it does not commit', async () => {
    const undone: string[] = [];
    await writeTransaction(t.database.db, async (tx) => {
      tx.onRollback(async () => void undone.push('committed'));
      await store.append(tx, 'saves-undo-1', 0, [saved(8, 1)]);
    });
    await expect(
      writeTransaction(t.database.db, async (tx) => {
        tx.onRollback(async () => void undone.push('first'));
        tx.onRollback(async () => void undone.push('second'));
        await store.append(tx, 'saves-undo-1', 0, [saved(8, 2)]);
      }),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect(undone).toEqual(['second', 'first']);
  });

  it('concurrent appends to one stream with the same expected version: exactly one wins', async () => {
    await store.append(t.database.db, 'saves-4', 0, [saved(4, 1)]);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => store.append(t.database.db, 'saves-4', 1, [saved(4, 10 + i)])),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const failures = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(failures.every((f) => f.reason instanceof ConcurrencyError)).toBe(true);
  });
});
