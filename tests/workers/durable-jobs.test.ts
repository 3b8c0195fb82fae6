// Jobs survive restarts, ride out trouble around them without using up attempts, and whatever
// work the log says is unfinished is re-driven by the reconciler.
import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { uploadPhoto } from '../helpers/world.ts';
import { createProcessors, dispatchRules } from '../../workers/jobs.ts';
import { createBullQueue } from '../../server/queue/bullmq.ts';
import { createInlineQueue } from '../../server/queue/inline.ts';
import type { JobQueue } from '../../server/queue/queue.ts';
import { isTransientError } from '../../server/dependency-errors.ts';
import { startDispatcher } from '../../server/queue/dispatcher.ts';
import { JOB_ATTEMPTS, type Processors } from '../../server/queue/jobs.ts';
import { createReconciler } from '../../workers/reconciler.ts';
import { givenCat, givenPerson, ratingOf } from '../server/reviews/fixtures.ts';

const adminShutdown = () =>
  Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });

async function photoStatus(t: TestApp, id: number): Promise<string | undefined> {
  const row = await t.services.database.db
    .selectFrom('photos')
    .select('status')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.status;
}

/** Processors that only count calls, failing the first `failures` calls with `error`. */
function flaky(failures: number, error: () => Error): { processors: Processors; calls: () => number } {
  let calls = 0;
  const run = async () => {
    calls += 1;
    if (calls <= failures) throw error();
  };
  return { processors: { photos: run, ratings: run }, calls: () => calls };
}

describe('embedded jobs kept in the database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
  });
  afterAll(async () => t.close());

  it('runs jobs dispatched before a crash after the restart: the photo becomes ready, the rating right', async () => {
    const { database } = t.services;
    const cat = await givenCat(t);
    const who = await givenPerson(t, 'reviewer');
    expect((await call(t.app, 'POST', '/api/reviews', { cat_id: cat, rating: 4 }, who.token)).status).toBe(
      201,
    );
    const photo = await uploadPhoto(t, 'cats', cat, who);

    // The first run dispatches (its checkpoint moves past both events) and dies before any job ran.
    const before = createInlineQueue(database);
    const dispatcher = await startDispatcher(database, before, dispatchRules, { pollMs: 50 });
    await dispatcher.drain();
    await dispatcher.stop();
    await before.close();
    expect(await photoStatus(t, photo)).toBe('processing');

    // The next run has nothing in memory; the jobs are still there.
    const after = createInlineQueue(database);
    try {
      await after.process(createProcessors({ ...t.services, queue: after }), { photos: 1, ratings: 1 });
      await after.idle();
      expect(await photoStatus(t, photo)).toBe('ready');
      expect(await ratingOf(t, 'cat', cat)).toEqual({ rating: 4, review_count: 1 });
      const left = await database.db.selectFrom('jobs').select('id').execute();
      expect(left).toEqual([]);
    } finally {
      await after.close();
    }
  });

  it('does not dispatch jobs whose checkpoint transaction rolled back', async () => {
    const queue = createInlineQueue(t.services.database);
    try {
      await t.services.database.db
        .transaction()
        .execute(async (trx) => {
          await queue.add(
            [{ queue: 'ratings', id: 'rolled-back', data: { target_type: 'cat', target_id: 1 } }],
            trx,
          );
          throw new Error('rollback');
        })
        .catch(() => {});
      const rows = await t.services.database.db
        .selectFrom('jobs')
        .select('id')
        .where('id', '=', 'rolled-back')
        .execute();
      expect(rows).toEqual([]);
    } finally {
      await queue.close();
    }
  });

  it('retries transient trouble past the attempt budget without counting it', async () => {
    const queue = createInlineQueue(t.services.database, { backoff: () => 5, pollMs: 50 });
    const job = flaky(JOB_ATTEMPTS * 2, adminShutdown);
    try {
      await queue.process(job.processors, { photos: 1, ratings: 1 });
      await queue.add([{ queue: 'ratings', id: 'transient-1', data: { target_type: 'cat', target_id: 1 } }]);
      await queue.idle();
      expect(job.calls()).toBe(JOB_ATTEMPTS * 2 + 1);
      expect((await queue.counts()).ratings.failed).toBe(0);
    } finally {
      await queue.close();
    }
  });

  it('fails a job for good after its attempts at a real error, and keeps the row to look at', async () => {
    const queue = createInlineQueue(t.services.database, { backoff: () => 5, pollMs: 50 });
    const job = flaky(Number.MAX_SAFE_INTEGER, () => new Error('broken input'));
    try {
      await queue.process(job.processors, { photos: 1, ratings: 1 });
      await queue.add([{ queue: 'photos', id: 'real-1', data: { photo_id: 1 } }]);
      await queue.idle();
      expect(job.calls()).toBe(JOB_ATTEMPTS);
      expect((await queue.counts()).photos.failed).toBe(1);
      const row = await t.services.database.db
        .selectFrom('jobs')
        .select(['attempts', 'last_error', 'failed_at'])
        .where('id', '=', 'real-1')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ attempts: JOB_ATTEMPTS, last_error: 'broken input' });
      expect(row.failed_at).not.toBeNull();
    } finally {
      await queue.close();
    }
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('BullMQ jobs under transient trouble', () => {
  let queue: JobQueue;
  afterAll(async () => queue?.close());

  it('retries a job through more transient failures than it has attempts, then completes it', async () => {
    queue = createBullQueue({
      url: process.env.TEST_REDIS_URL!,
      prefix: `bodega_test_${randomBytes(4).toString('hex')}`,
      transientBackoff: () => 10,
    });
    const job = flaky(JOB_ATTEMPTS * 2, adminShutdown);
    await queue.process(job.processors, { photos: 1, ratings: 1 });
    await queue.add([{ queue: 'ratings', id: 'transient-bull', data: { target_type: 'cat', target_id: 1 } }]);
    await queue.idle();
    expect(job.calls()).toBe(JOB_ATTEMPTS * 2 + 1);
    const counts = await queue.counts();
    expect(counts.ratings).toMatchObject({ failed: 0, completed: 1 });
  });
});

describe('the reconciler', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No worker: the jobs these events should have caused never run, as if the queue lost them.
    t = await createTestApp({ worker: false });
  });
  afterAll(async () => t.close());

  it('re-drives a photo left processing and a rating that differs from its reviews', async () => {
    const { database } = t.services;
    const cat = await givenCat(t);
    const who = await givenPerson(t, 'reviewer');
    expect((await call(t.app, 'POST', '/api/reviews', { cat_id: cat, rating: 2 }, who.token)).status).toBe(
      201,
    );
    const photo = await uploadPhoto(t, 'cats', cat, who);
    const fresh = await uploadPhoto(t, 'cats', cat, who);
    await sql`update photos set created_at = now() - interval '20 minutes' where id = ${photo}`.execute(
      database.db,
    );

    const queue = createInlineQueue(database);
    try {
      await queue.process(createProcessors({ ...t.services, queue }), { photos: 1, ratings: 1 });
      const reconciler = createReconciler({ database, queue }, { stalePhotoMinutes: 10 });
      // A rating differing once may just be waiting for its job: only the second sighting counts.
      expect(await reconciler.run()).toEqual({ photos: 1, ratings: 0 });
      await queue.idle();
      expect(await photoStatus(t, photo)).toBe('ready');
      expect(await photoStatus(t, fresh)).toBe('processing');
      expect(await ratingOf(t, 'cat', cat)).toEqual({ rating: 0, review_count: 0 });

      expect(await reconciler.run()).toEqual({ photos: 0, ratings: 1 });
      await queue.idle();
      expect(await ratingOf(t, 'cat', cat)).toEqual({ rating: 2, review_count: 1 });
      expect(await reconciler.run()).toEqual({ photos: 0, ratings: 0 });
    } finally {
      await queue.close();
    }
  });
});

describe('transient errors', () => {
  it('are told apart from real ones', () => {
    expect(isTransientError(adminShutdown())).toBe(true);
    expect(isTransientError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isTransientError(new Error('Command timed out'))).toBe(true);
    expect(isTransientError(new Error('wrapped', { cause: adminShutdown() }))).toBe(true);
    expect(isTransientError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isTransientError(new Error('Input buffer contains unsupported image format'))).toBe(false);
  });
});
