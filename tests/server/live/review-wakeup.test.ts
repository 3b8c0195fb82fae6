// A review posted through the API reaches an open stream socket because the post wakes the
// broadcaster (NOTIFY after the commit), not because of its poll: in embedded mode the poll here is
// a minute. On a shared Postgres server a wake-up can come while another database's transaction
// still holds the log's horizon (see HORIZON in consumer.ts), and then the poll brings the event,
// so there the poll is the usual couple of seconds.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, testConfig, type TestApp } from '../../helpers/app.ts';
import { storageMode } from '../../helpers/storage.ts';
import { givenCat, givenPerson } from '../reviews/fixtures.ts';
import { connectStream, listenOnLoopback, type StreamClient } from './stream-client.ts';

let t: TestApp;
let base: string;
let client: StreamClient | null = null;

beforeAll(async () => {
  t = await createTestApp({
    worker: false,
    config: { live: { ...testConfig().live, pollMs: storageMode() === 'pglite' ? 60_000 : 2_000 } },
  });
  base = await listenOnLoopback(t.app);
});
afterAll(async () => {
  await client?.close();
  await t.close();
});

it("delivers other users' reviews to a socket watching the cat within seconds", async () => {
  const catId = await givenCat(t);
  const reviewers = [await givenPerson(t, 'first'), await givenPerson(t, 'second')];
  client = await connectStream(base);
  // The broadcaster's first run is over by now: from here only a wake-up brings anything.
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Posted together: the second commit's wake-up may be folded into the one already in flight.
  const posts = await Promise.all(
    reviewers.map((reviewer, i) =>
      t.app.inject({
        method: 'POST',
        url: '/api/reviews',
        headers: { authorization: `Bearer ${reviewer.token}` },
        payload: { cat_id: catId, rating: 2 + i, comment: `Review ${i + 1}` },
      }),
    ),
  );
  expect(posts.map((p) => p.statusCode)).toEqual([201, 201]);
  // The cat's own events may come first: they can still be below the log's horizon at connect.
  const reviews = () => client!.events().filter((m) => m.type === 'review.posted');
  await client.waitFor(() => reviews().length >= 2, 15_000);
  const events = reviews();
  expect(events).toHaveLength(2);
  expect(events.map((m) => m.data.user.id).sort()).toEqual(reviewers.map((r) => r.id).sort());
  expect(events.every((m) => m.data.target_type === 'cat' && m.data.target_id === catId)).toBe(true);
});
