import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../helpers/app.ts';
import { dispatchRules } from '../../workers/jobs.ts';
import { catalogueProjection } from '../../server/catalogue/projection.ts';
import { replay } from '../../server/events/replay.ts';
import { toRecordedEvent } from '../../server/events/store.ts';
import { reviewsProjection } from '../../server/reviews/projection.ts';
import { jobsFor } from '../../server/queue/dispatcher.ts';
import { createRatingsProcessor } from '../../server/reviews/ratings.ts';
import {
  deleteCat,
  givenBodega,
  givenCat,
  givenPerson,
  ratingEvents,
  ratingOf,
  type Person,
} from '../server/reviews/fixtures.ts';

const review = (t: TestApp, who: Person, body: object) =>
  call(t.app, 'POST', '/api/reviews', { rating: 5, ...body }, who.token);

describe('ratings recomputed by the worker', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('ends with the exact rating and count after 50 people review one cat at once', async () => {
    const cat = await givenCat(t);
    const people = await Promise.all(Array.from({ length: 50 }, () => givenPerson(t, 'fan')));
    const stars = people.map((_, i) => [5, 4, 4, 3, 5, 1, 2][i % 7]!);
    const results = await Promise.all(
      people.map((who, i) => review(t, who, { cat_id: cat, rating: stars[i] })),
    );
    expect(results.map((r) => r.status)).toEqual(people.map(() => 201));

    await t.settle();
    const sum = stars.reduce((a, b) => a + b, 0);
    expect(sum / 50).toBe(3.46); // 173 / 50: exact at 2 decimals, so no rounding hides an error
    expect(await ratingOf(t, 'cat', cat)).toEqual({ rating: 3.46, review_count: 50 });
    const events = await ratingEvents(t, 'cat', cat);
    expect(events.at(-1)!.data).toMatchObject({ rating: 3.46, review_count: 50 });
  });

  it('rounds the average to 2 decimals', async () => {
    const bodega = await givenBodega(t);
    for (const rating of [5, 4, 4]) await review(t, await givenPerson(t), { bodega_id: bodega, rating });
    await t.settle();
    expect(await ratingOf(t, 'bodega', bodega)).toEqual({ rating: 4.33, review_count: 3 });
  });

  it('brings the rating back to 0 when the last review is deleted', async () => {
    const cat = await givenCat(t);
    const who = await givenPerson(t);
    const { body } = await review(t, who, { cat_id: cat, rating: 4 });
    await t.settle();
    expect(await ratingOf(t, 'cat', cat)).toEqual({ rating: 4, review_count: 1 });
    const res = await call(t.app, 'DELETE', `/api/reviews/${body.review.id}`, undefined, who.token);
    expect(res.status).toBe(200);
    await t.settle();
    expect(await ratingOf(t, 'cat', cat)).toEqual({ rating: 0, review_count: 0 });
  });

  it('lets replay rebuild every rating from the log alone, without the worker', async () => {
    const bodega = await givenBodega(t);
    const cat = await givenCat(t, bodega);
    for (const rating of [2, 5, 3]) {
      const who = await givenPerson(t);
      await review(t, who, { cat_id: cat, rating });
      await review(t, who, { bodega_id: bodega, rating: 6 - rating });
    }
    await t.settle();
    const before = { cat: await ratingOf(t, 'cat', cat), bodega: await ratingOf(t, 'bodega', bodega) };
    expect(before.cat).toEqual({ rating: 3.33, review_count: 3 });

    const verified = await replay(t.services.database, [catalogueProjection, reviewsProjection], {
      verify: true,
    });
    expect(verified.differences.filter((d) => !d.same)).toEqual([]);

    await t.worker!.stop();
    await t.services.database.db.updateTable('cats').set({ rating: 0, review_count: 0 }).execute();
    await t.services.database.db.updateTable('bodegas').set({ rating: 0, review_count: 0 }).execute();
    await t.services.database.db.deleteFrom('reviews').execute();
    await replay(t.services.database, [catalogueProjection, reviewsProjection]);
    expect({ cat: await ratingOf(t, 'cat', cat), bodega: await ratingOf(t, 'bodega', bodega) }).toEqual(
      before,
    );
    expect((await call(t.app, 'GET', `/api/reviews/cat/${cat}`)).body.pagination.total).toBe(3);
  });
});

describe('the ratings job', () => {
  let t: TestApp;
  let run: ReturnType<typeof createRatingsProcessor>;
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    run = createRatingsProcessor(t.services);
  });
  afterAll(async () => t.close());

  it('is dispatched for every posted or deleted review, with an id derived from the event', async () => {
    const cat = await givenCat(t);
    const who = await givenPerson(t);
    const { body } = await review(t, who, { cat_id: cat });
    await call(t.app, 'DELETE', `/api/reviews/${body.review.id}`, undefined, who.token);
    const rows = await t.services.database.db
      .selectFrom('events')
      .selectAll()
      .where('stream_id', '=', `review-${body.review.id}`)
      .orderBy('global_position')
      .execute();
    const events = rows.map((row) =>
      toRecordedEvent(row as unknown as Parameters<typeof toRecordedEvent>[0]),
    );
    expect(events.map((e) => e.type)).toEqual(['ReviewPosted', 'ReviewDeleted']);
    const jobs = jobsFor(dispatchRules, events, 'a1b2c3');
    expect(jobs).toEqual(
      events.map((e) => ({
        queue: 'ratings',
        id: `a1b2c3-${e.position}-ratings`,
        data: { target_type: 'cat', target_id: cat },
      })),
    );
  });

  it('records one RatingRecomputed when the same job runs twice', async () => {
    const cat = await givenCat(t);
    await review(t, await givenPerson(t), { cat_id: cat, rating: 5 });
    await review(t, await givenPerson(t), { cat_id: cat, rating: 2 });
    const job = { target_type: 'cat' as const, target_id: cat };
    await run(job, { id: '1-ratings', attempt: 1 });
    await run(job, { id: '1-ratings', attempt: 2 });
    const events = await ratingEvents(t, 'cat', cat);
    expect(events.map((e) => e.type)).toEqual(['RatingRecomputed']);
    expect(await ratingOf(t, 'cat', cat)).toEqual({ rating: 3.5, review_count: 2 });
  });

  it('converges when several jobs for one cat run at once', async () => {
    const cat = await givenCat(t);
    await review(t, await givenPerson(t), { cat_id: cat, rating: 1 });
    const job = { target_type: 'cat' as const, target_id: cat };
    await Promise.all(Array.from({ length: 10 }, (_, i) => run(job, { id: `${i}-ratings`, attempt: 1 })));
    await review(t, await givenPerson(t), { cat_id: cat, rating: 4 });
    await Promise.all(Array.from({ length: 10 }, (_, i) => run(job, { id: `${i}-ratings`, attempt: 1 })));
    expect((await ratingEvents(t, 'cat', cat)).map((e) => e.data)).toEqual([
      { target_type: 'cat', target_id: cat, rating: 1, review_count: 1 },
      { target_type: 'cat', target_id: cat, rating: 2.5, review_count: 2 },
    ]);
  });

  it('does nothing for a cat that no longer exists', async () => {
    const cat = await givenCat(t);
    await review(t, await givenPerson(t), { cat_id: cat, rating: 3 });
    await deleteCat(t, cat);
    await run({ target_type: 'cat', target_id: cat }, { id: '1-ratings', attempt: 1 });
    expect(await ratingEvents(t, 'cat', cat)).toEqual([]);
  });

  it('gives up at once on a job that can never succeed', async () => {
    await expect(
      run({ target_type: 'dog' as never, target_id: 1 }, { id: '1-ratings', attempt: 1 }),
    ).rejects.toThrow(/not a rating target/);
  });
});
