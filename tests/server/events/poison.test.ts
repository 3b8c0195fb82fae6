// A consumer never halts forever on one bad event, never silently misreads an event from newer
// code, and never holds a transaction open while its effect talks to another system.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../../server/db/schema.ts';
import { startCheckpointedConsumer, type ConsumerLoop } from '../../../server/events/consumer.ts';
import { createEventStore } from '../../../server/events/store.ts';
import type { RecordedEvent } from '../../../server/events/types.ts';
import { NewerEventError } from '../../../server/events/upcasters.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/storage.ts';

const store = createEventStore([]);
let counter = 0;

async function appendSaved(t: TestDatabase): Promise<number> {
  counter += 1;
  const { events } = await store.append(t.database.db, `list-poison-${counter}`, 'any', [
    { type: 'ItemSaved', data: { user_id: counter, target_type: 'cat', target_id: counter } },
  ]);
  return events[0]!.position;
}

/** An event row written around the store, as a bad migration or a hand edit would. */
async function appendRaw(t: TestDatabase, type: string, data: string, schemaVersion = 1): Promise<number> {
  counter += 1;
  const { rows } = await sql<{ global_position: number }>`
    insert into events (stream_id, stream_version, type, schema_version, data)
    values (${`raw-${counter}`}, 1, ${type}, ${schemaVersion}, ${data}::jsonb)
    returning global_position`.execute(t.database.db);
  return Number(rows[0]!.global_position);
}

async function parked(t: TestDatabase, consumer: string) {
  return t.database.db
    .selectFrom('parked_events')
    .select(['global_position', 'type', 'error'])
    .where('consumer', '=', consumer)
    .orderBy('global_position')
    .execute();
}

describe('checkpointed consumers and bad events', () => {
  let t: TestDatabase;
  const loops: ConsumerLoop[] = [];
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    for (const loop of loops) await loop.stop();
    await t.drop();
  });

  function consume(
    name: string,
    handle: (db: Kysely<DB>, events: RecordedEvent[]) => Promise<void>,
    extra: { effectOutsideTransaction?: boolean; onError?(error: unknown): void } = {},
  ) {
    return startCheckpointedConsumer(
      t.database,
      {
        name,
        batchSize: 50,
        handle,
        effectOutsideTransaction: extra.effectOutsideTransaction,
        parkAfter: { tries: 3, ms: 300 },
      },
      { pollMs: 50, onError: extra.onError },
    ).then((loop) => (loops.push(loop), loop));
  }

  it.each([false, true])(
    'parks a malformed event and an event its handler keeps rejecting, and handles the rest (effect outside a transaction: %s)',
    async (outside) => {
      const name = `poison-${outside}`;
      const before = await appendSaved(t);
      const malformed = await appendRaw(t, 'ItemSaved', '"not an object"');
      const rejected = await appendSaved(t);
      const after = await appendSaved(t);
      const seen: number[] = [];
      const loop = await consume(
        name,
        async (_db, events) => {
          if (events.some((e) => e.position === rejected)) throw new Error('this one breaks the handler');
          seen.push(...events.map((e) => e.position));
        },
        { effectOutsideTransaction: outside },
      );
      await loop.drain(20_000);
      expect(seen).toContain(before);
      expect(seen).toContain(after);
      expect(seen).not.toContain(malformed);
      expect(seen).not.toContain(rejected);
      const rows = (await parked(t, name)).filter((r) => Number(r.global_position) >= before);
      expect(rows.map((r) => [Number(r.global_position), r.type])).toEqual([
        [malformed, 'ItemSaved'],
        [rejected, 'ItemSaved'],
      ]);
      expect(rows[1]!.error).toBe('this one breaks the handler');
    },
  );

  it('runs an outside effect with no transaction open', async () => {
    await appendSaved(t);
    const inTransaction: boolean[] = [];
    const loop = await consume(
      'outside-effect',
      async (db) => {
        inTransaction.push(db.isTransaction);
      },
      { effectOutsideTransaction: true },
    );
    await loop.drain(20_000);
    expect(inTransaction.length).toBeGreaterThan(0);
    expect(inTransaction.every((x) => !x)).toBe(true);
  });

  it('stops loudly, without skipping, at an event newer code wrote', async () => {
    const fresh = await createTestDatabase();
    try {
      await sql`
        insert into events (stream_id, stream_version, type, schema_version, data)
        values ('future-1', 1, 'ItemSaved', 99, '{"user_id": 1, "target_type": "cat", "target_id": 1}'::jsonb)`.execute(
        fresh.database.db,
      );
      const errors: unknown[] = [];
      const loop = await startCheckpointedConsumer(
        fresh.database,
        { name: 'future', handle: async () => {} },
        { pollMs: 50, onError: (e) => errors.push(e) },
      );
      try {
        await loop.drain(1_000);
        expect(errors.some((e) => e instanceof NewerEventError)).toBe(true);
        expect(String(errors.find((e) => e instanceof NewerEventError))).toMatch(/schema version 99/);
        const sub = await fresh.database.db
          .selectFrom('subscriptions')
          .select('last_position')
          .where('name', '=', 'future')
          .executeTakeFirstOrThrow();
        expect(Number(sub.last_position)).toBe(0);
        expect(await parked(fresh, 'future')).toEqual([]);
      } finally {
        await loop.stop();
      }
    } finally {
      await fresh.drop();
    }
  });
});
