import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { consumeBatch, type CheckpointedConsumer } from '../../../server/events/consumer.ts';
import {
  assertLogConsumable,
  checkLogIncarnation,
  currentIncarnation,
  rebaseLog,
  RebaseRefusedError,
  RestoredLogError,
} from '../../../server/events/incarnation.ts';
import { createEventStore } from '../../../server/events/store.ts';
import type { NewEvent } from '../../../server/events/types.ts';
import { databaseChecks } from '../../../server/ops/doctor-checks.ts';
import { createInlineQueue } from '../../../server/queue/inline.ts';
import {
  DISPATCHER,
  jobId,
  jobsFor,
  startDispatcher,
  type DispatchRule,
} from '../../../server/queue/dispatcher.ts';
import { causedBy } from '../../../server/reviews/ratings.ts';
import { createTestDatabase, storageMode, type TestDatabase } from '../../helpers/storage.ts';

const run = promisify(execFile);
const store = createEventStore([]);
const ev = (n: number): NewEvent => ({
  type: 'ItemSaved',
  data: { user_id: n, target_type: 'cat', target_id: n },
});
const insert = `insert into events (stream_id, stream_version, type, data)
  values ($1, 1, 'ItemSaved', '{"user_id":1,"target_type":"cat","target_id":1}') returning global_position`;

/** Every ItemSaved becomes one ratings job (never processed here: the jobs table shows them). */
const rules: DispatchRule[] = [
  {
    type: 'ItemSaved',
    jobs: (event) => [
      { queue: 'ratings', id: jobId(event, 'ratings'), data: { target_type: 'cat', target_id: 1 } },
    ],
  },
];

describe('job ids', () => {
  it('carry the log incarnation in front of the position, and the ratings job still finds the position', () => {
    const event = { type: 'ItemSaved', position: 42 } as never;
    expect(jobsFor(rules, [event], '0a1b2c3d4e5f')[0]!.id).toBe('0a1b2c3d4e5f-42-ratings');
    expect(causedBy('0a1b2c3d4e5f-42-ratings')).toEqual({ causation_position: 42 });
    expect(causedBy('123456-42-ratings')).toEqual({ causation_position: 42 });
    expect(causedBy('42-ratings')).toEqual({ causation_position: 42 }); // queued before incarnations
    expect(causedBy('reconcile-1-cat-2')).toEqual({});
  });
});

// A restore into another cluster needs transaction ids of a real server, with other sessions
// around; PGlite is one session in one process and is never restored into with pg_dump.
describe.skipIf(storageMode() !== 'postgres')('a log restored into another cluster', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t?.drop());

  it('is detected, refused, rebased, and its consumers resume with nothing skipped or repeated', async () => {
    const db = t.database.db;
    const seen: number[] = [];
    const probe: CheckpointedConsumer = {
      name: 'restore-probe',
      batchSize: 1,
      handle: async (_trx, events) => void seen.push(...events.map((e) => e.position)),
    };
    /**
     * Runs the probe until it has seen `count` events, then a little longer to catch extras. The
     * horizon is server-wide: a transaction elsewhere on the server can hold it back for a moment.
     */
    const drainProbe = async (count: number) => {
      const deadline = Date.now() + 20_000;
      while (seen.length < count && Date.now() < deadline) {
        if ((await consumeBatch(t.database, probe)) === 0) await new Promise((r) => setTimeout(r, 25));
      }
      for (let i = 0; i < 5; i++) await consumeBatch(t.database, probe);
    };
    const queue = createInlineQueue(t.database);
    const dispatchAll = async () => {
      const loop = await startDispatcher(t.database, queue, rules, { pollMs: 50 });
      await loop.drain(20_000);
      await loop.stop();
    };
    const jobIds = async () => (await db.selectFrom('jobs').select('id').execute()).map((r) => r.id).sort();

    // Before: three events, both consumers caught up.
    const before = [];
    for (let i = 1; i <= 3; i++) before.push(...(await store.append(db, `restore-${i}`, 0, [ev(i)])).events);
    await drainProbe(3);
    expect(seen).toEqual(before.map((e) => e.position));

    // Two events committed out of position order: A takes its transaction id first, B inserts
    // first (lower position, higher id). The probe reads one of them (A's) before the restore.
    const a = new pg.Client({ connectionString: t.url! });
    const b = new pg.Client({ connectionString: t.url! });
    await a.connect();
    await b.connect();
    let lowPosition: number;
    let highPosition: number;
    try {
      await a.query('begin');
      await a.query('select pg_current_xact_id()');
      await b.query('begin');
      lowPosition = Number((await b.query(insert, ['restore-ooo-b'])).rows[0].global_position);
      await b.query('commit');
      highPosition = Number((await a.query(insert, ['restore-ooo-a'])).rows[0].global_position);
      await a.query('commit');
    } finally {
      await a.end();
      await b.end();
    }
    expect(lowPosition).toBeLessThan(highPosition);
    for (let i = 0; i < 800 && seen.length < 4; i++) {
      if ((await consumeBatch(t.database, probe)) === 0) await new Promise((r) => setTimeout(r, 25));
    }
    expect(seen.at(-1)).toBe(highPosition); // A's event: lower transaction id, so first in log order
    await dispatchAll();
    const oldIncarnation = await currentIncarnation(db);
    const jobsBefore = await jobIds();
    expect(jobsBefore).toEqual(
      [...before.map((e) => e.position), highPosition, lowPosition]
        .map((p) => `${oldIncarnation}-${p}-ratings`)
        .sort(),
    );
    expect((await checkLogIncarnation(db)).restored).toBe(false);

    // The restore: stored transaction ids end up far above the ones this cluster hands out.
    const { rows: ids } = await sql<{ next: string; low: string }>`
      select pg_snapshot_xmax(pg_current_snapshot())::text as next,
             (select min(transaction_id::text::bigint) from events)::text as low`.execute(db);
    const shift = BigInt(ids[0]!.next) - BigInt(ids[0]!.low) + 1_000_000n;
    await sql`
      update events set transaction_id = (transaction_id::text::bigint + ${String(shift)}::bigint)::text::xid8`.execute(
      db,
    );
    await sql`
      update subscriptions
      set last_transaction_id = (last_transaction_id::text::bigint + ${String(shift)}::bigint)::text::xid8
      where last_transaction_id <> '0'`.execute(db);

    // The bug: a new event sorts below every checkpoint, and no consumer ever sees it.
    const [lost] = (await store.append(db, 'restore-after', 0, [ev(9)])).events;
    await dispatchAll();
    expect(await jobIds()).toEqual(jobsBefore);

    // Detection: at start (main.ts refuses), in the doctor, and in `npm run log -- status`.
    const log = await checkLogIncarnation(db);
    expect(log.restored).toBe(true);
    await expect(assertLogConsumable(db)).rejects.toBeInstanceOf(RestoredLogError);
    const doctor = (await databaseChecks(t.database)).find((c) => c.name === 'event log');
    expect(doctor).toMatchObject({ ok: false });
    expect(doctor!.detail).toContain('npm run log -- rebase');
    const env = { ...process.env, DATABASE_URL: t.url!, NODE_ENV: 'test', LOG_LEVEL: 'silent' };
    const status = await run('npx', ['tsx', 'scripts/log.ts', 'status'], { env }).catch(
      (error: { code: number; stdout: string }) => error,
    );
    expect('code' in status ? status.code : 0).toBe(1);
    expect(status.stdout).toContain('npm run log -- rebase');
    expect(status.stdout).toContain(`consumer ${DISPATCHER}`);

    // A worker (like the api) refuses to start and names the fix.
    const worker = await run('npx', ['tsx', 'main.ts', 'worker'], { env, timeout: 60_000 }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect('code' in worker ? worker.code : 0).toBe(1);
    expect(worker.stderr).toContain('Stop every api and worker process, run `npm run log -- rebase`');

    // A session of this database holding a transaction id could still append below the new
    // checkpoints: the rebase refuses until it is gone.
    const holder = new pg.Client({ connectionString: t.url! });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_current_xact_id()');
      await expect(rebaseLog(db)).rejects.toBeInstanceOf(RebaseRefusedError);
    } finally {
      await holder.end();
    }
    expect((await checkLogIncarnation(db)).restored).toBe(true);

    // The fix, through the real command.
    const rebase = await run('npx', ['tsx', 'scripts/log.ts', 'rebase'], { env });
    expect(rebase.stdout).toMatch(/Rebased 6 events onto transaction \d+/);
    expect((await checkLogIncarnation(db)).restored).toBe(false);
    await expect(assertLogConsumable(db)).resolves.toMatchObject({ restored: false });
    const newIncarnation = await currentIncarnation(db);
    expect(newIncarnation).not.toBe(oldIncarnation);

    // The probe resumes with the event it had not read (B's, lower position) and the lost one,
    // exactly once each; the dispatcher gets the lost one only, under the new incarnation.
    await drainProbe(6);
    expect(seen).toEqual([...before.map((e) => e.position), highPosition, lowPosition, lost!.position]);
    await dispatchAll();
    expect(await jobIds()).toEqual([...jobsBefore, `${newIncarnation}-${lost!.position}-ratings`].sort());

    // And the log goes on: a later append reaches both.
    const [later] = (await store.append(db, 'restore-later', 0, [ev(10)])).events;
    await drainProbe(7);
    expect(seen.at(-1)).toBe(later!.position);
    expect(seen).toHaveLength(new Set(seen).size);
    await dispatchAll();
    expect(await jobIds()).toContain(`${newIncarnation}-${later!.position}-ratings`);
    expect(await jobIds()).toHaveLength(jobsBefore.length + 2);
    await queue.close();
  }, 60_000);
});
