import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../server/domains.ts';
import { replay } from '../../../server/events/replay.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { deleteBodega, deleteCat, givenBodega, givenCat, givenPerson, type Person } from './fixtures.ts';

let t: TestApp;
let alice: Person;
let bob: Person;

beforeAll(async () => {
  t = await createTestApp({ worker: false });
  alice = await givenPerson(t, 'alice');
  bob = await givenPerson(t, 'bob');
});
afterAll(async () => t.close());

const post = (body: unknown, who?: Person) => call(t.app, 'POST', '/api/reviews', body, who?.token);

describe('POST /api/reviews', () => {
  it('posts a review of a cat and answers with the review', async () => {
    const cat = await givenCat(t);
    const res = await post(
      { cat_id: cat, rating: 4, comment: '  Very friendly, loves chin scratches.  ' },
      alice,
    );
    expect(res.status).toBe(201);
    expect(res.body.review).toEqual({
      id: expect.any(Number),
      rating: 4,
      comment: 'Very friendly, loves chin scratches.',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      user: { id: alice.id, username: alice.username },
      cat_id: cat,
      bodega_id: null,
    });
  });

  it('posts a review of a bodega, the comment being optional', async () => {
    const bodega = await givenBodega(t);
    const res = await post({ bodega_id: bodega, rating: 5 }, alice);
    expect(res.status).toBe(201);
    expect(res.body.review).toMatchObject({ rating: 5, comment: '', cat_id: null, bodega_id: bodega });
  });

  it('asks a signed-out visitor to log in', async () => {
    const cat = await givenCat(t);
    const res = await post({ cat_id: cat, rating: 5 });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: expect.any(String), code: 'unauthorized' });
    const bad = await call(t.app, 'POST', '/api/reviews', { cat_id: cat, rating: 5 }, 'not-a-token');
    expect(bad.status).toBe(401);
    // Signed out comes first: no hints about the body to someone who may not write at all.
    expect((await post({ rating: 9 })).status).toBe(401);
  });

  it('needs exactly one target', async () => {
    const cat = await givenCat(t);
    const bodega = await givenBodega(t);
    for (const body of [
      { cat_id: cat, bodega_id: bodega, rating: 3 },
      { rating: 3 },
      { cat_id: null, bodega_id: null, rating: 3 },
    ]) {
      const res = await post(body, alice);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_input');
      expect(res.body.details).toHaveProperty('cat_id');
    }
  });

  it('takes a whole-number rating from 1 to 5 only', async () => {
    const cat = await givenCat(t);
    for (const rating of [0, 6, 4.5, '5', null, -1]) {
      const res = await post({ cat_id: cat, rating }, alice);
      expect(res.status, `rating ${JSON.stringify(rating)}`).toBe(400);
      expect(res.body.details).toHaveProperty('rating');
    }
    expect((await post({ cat_id: cat, comment: 'no stars' }, alice)).status).toBe(400);
  });

  it('takes a comment of at most 2000 characters once trimmed', async () => {
    const cat = await givenCat(t);
    const tooLong = await post({ cat_id: cat, rating: 3, comment: 'm'.repeat(2001) }, alice);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details).toEqual({ comment: 'must be at most 2000 characters' });
    const padded = await post({ cat_id: cat, rating: 3, comment: `  ${'m'.repeat(2000)}\n` }, alice);
    expect(padded.status).toBe(201);
    expect(padded.body.review.comment).toHaveLength(2000);
  });

  it('rejects unknown fields and bodies that are not JSON', async () => {
    const cat = await givenCat(t);
    const extra = await post({ cat_id: cat, rating: 3, user_id: bob.id }, alice);
    expect(extra.status).toBe(400);
    expect(extra.body.details).toEqual({ user_id: 'is not a known field' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/reviews',
      payload: '{"cat_id": ',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers 404 for a cat or bodega that does not exist', async () => {
    const cat = await post({ cat_id: 999999, rating: 3 }, alice);
    expect(cat.status).toBe(404);
    expect(cat.body).toEqual({ error: 'Cat not found', code: 'not_found' });
    const bodega = await post({ bodega_id: 999999, rating: 3 }, alice);
    expect(bodega.status).toBe(404);
    expect(bodega.body.error).toBe('Bodega not found');
  });

  it('allows one review per person per cat or bodega', async () => {
    const bodega = await givenBodega(t);
    const cat = await givenCat(t, bodega);
    expect((await post({ cat_id: cat, rating: 5 }, alice)).status).toBe(201);
    const again = await post({ cat_id: cat, rating: 1, comment: 'changed my mind' }, alice);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'You have already reviewed this cat', code: 'already_reviewed' });
    expect((await post({ bodega_id: bodega, rating: 4 }, alice)).status).toBe(201);
    expect((await post({ cat_id: cat, rating: 2 }, bob)).status).toBe(201);
    const list = await call(t.app, 'GET', `/api/reviews/cat/${cat}`);
    expect(list.body.reviews.map((r: { rating: number }) => r.rating).sort()).toEqual([2, 5]);
  });

  it('keeps one review when the same person posts twice at the same moment', async () => {
    const cat = await givenCat(t);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post({ cat_id: cat, rating: (i % 5) + 1 }, bob)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const list = await call(t.app, 'GET', `/api/reviews/cat/${cat}`);
    expect(list.body.pagination.total).toBe(1);
  });

  it('gives a newcomer one data key when their first reviews arrive at the same moment', async () => {
    const carol = await givenPerson(t, 'carol');
    const cats = await Promise.all([1, 2, 3, 4].map(() => givenCat(t)));
    const results = await Promise.all(
      cats.map((cat, i) => post({ cat_id: cat, rating: 4, comment: `Note ${i}` }, carol)),
    );
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from user_keys where user_id = ${carol.id}`.execute(t.services.database.db);
    expect(rows[0]!.n).toBe(1);
    for (const [i, cat] of cats.entries()) {
      const listed = await call(t.app, 'GET', `/api/reviews/cat/${cat}`);
      expect(listed.body.reviews.map((r: { comment: string }) => r.comment)).toEqual([`Note ${i}`]);
    }
    // Sealed in the log under that key: a rebuild of the reviews from the log reads them back.
    const verify = await replay(t.services.database, projections, { verify: true });
    expect(verify.differences.filter((d) => !d.same)).toEqual([]);
  });

  it('returns the first result for a retried request with the same Idempotency-Key', async () => {
    const cat = await givenCat(t);
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/reviews',
        payload: { cat_id: cat, rating: 4, comment: 'Sleeps on the bread.' },
        headers: { authorization: `Bearer ${alice.token}`, 'idempotency-key': `review-${cat}` },
      });
    const first = await send();
    const retry = await send();
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const list = await call(t.app, 'GET', `/api/reviews/cat/${cat}`);
    expect(list.body.pagination.total).toBe(1);
  });

  it('forgets an Idempotency-Key after a day: the key is free for a new request', async () => {
    const [first, second] = [await givenCat(t), await givenCat(t)];
    const send = (cat: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/reviews',
        payload: { cat_id: cat, rating: 5 },
        headers: { authorization: `Bearer ${bob.token}`, 'idempotency-key': 'daily-key' },
      });
    expect((await send(first)).statusCode).toBe(201);
    expect((await send(second)).statusCode).toBe(409); // same key, different request
    await sql`update idempotency_keys set created_at = now() - interval '25 hours'
              where key = 'daily-key'`.execute(t.services.database.db);
    const later = await send(second);
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect((await call(t.app, 'GET', `/api/reviews/cat/${second}`)).body.pagination.total).toBe(1);
  });
});

describe('GET /api/reviews/{cat|bodega}/:id', () => {
  it('lists a cat’s reviews newest first, with usernames and never emails', async () => {
    const cat = await givenCat(t);
    const people = [alice, bob, await givenPerson(t, 'carol')];
    for (const [i, who] of people.entries()) {
      expect((await post({ cat_id: cat, rating: i + 1, comment: `review ${i}` }, who)).status).toBe(201);
    }
    const res = await call(t.app, 'GET', `/api/reviews/cat/${cat}`);
    expect(res.status).toBe(200);
    expect(res.body.reviews.map((r: { comment: string }) => r.comment)).toEqual([
      'review 2',
      'review 1',
      'review 0',
    ]);
    expect(res.body.reviews[0].user).toEqual({ id: people[2]!.id, username: people[2]!.username });
    expect(JSON.stringify(res.body)).not.toContain('@example.com');
    expect(res.body.pagination).toEqual({ page: 1, per_page: 20, total: 3, pages: 1 });
  });

  it('pages through a bodega’s reviews', async () => {
    const bodega = await givenBodega(t);
    for (let i = 0; i < 5; i++) {
      const who = await givenPerson(t, 'pager');
      expect((await post({ bodega_id: bodega, rating: 3, comment: `#${i}` }, who)).status).toBe(201);
    }
    const page2 = await call(t.app, 'GET', `/api/reviews/bodega/${bodega}?page=2&per_page=2`);
    expect(page2.status).toBe(200);
    expect(page2.body.reviews.map((r: { comment: string }) => r.comment)).toEqual(['#2', '#1']);
    expect(page2.body.pagination).toEqual({ page: 2, per_page: 2, total: 5, pages: 3 });
    const past = await call(t.app, 'GET', `/api/reviews/bodega/${bodega}?page=4&per_page=2`);
    expect(past.body.reviews).toEqual([]);
    expect((await call(t.app, 'GET', `/api/reviews/bodega/${bodega}?per_page=101`)).status).toBe(400);
    expect((await call(t.app, 'GET', `/api/reviews/bodega/${bodega}?page=0`)).status).toBe(400);
  });

  it('shows an empty list for a cat nobody has reviewed yet', async () => {
    const cat = await givenCat(t);
    const res = await call(t.app, 'GET', `/api/reviews/cat/${cat}/`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ reviews: [], pagination: { page: 1, per_page: 20, total: 0, pages: 0 } });
  });

  it('answers 404 for an unknown or malformed target id', async () => {
    for (const url of ['/api/reviews/cat/999999', '/api/reviews/bodega/999999', '/api/reviews/cat/abc']) {
      const res = await call(t.app, 'GET', url);
      expect(res.status, url).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    // A cat id is not a bodega id.
    const cat = await givenCat(t);
    const bodegas = await t.services.database.db.selectFrom('bodegas').select('id').execute();
    const notABodega = Math.max(cat, ...bodegas.map((b) => Number(b.id))) + 1000;
    expect((await call(t.app, 'GET', `/api/reviews/bodega/${notABodega}`)).status).toBe(404);
  });
});

describe('DELETE /api/reviews/:id', () => {
  it('lets the author delete a review and then review again', async () => {
    const cat = await givenCat(t);
    const { body } = await post({ cat_id: cat, rating: 2 }, alice);
    const res = await call(t.app, 'DELETE', `/api/reviews/${body.review.id}`, undefined, alice.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Review deleted' });
    expect((await call(t.app, 'GET', `/api/reviews/cat/${cat}`)).body.reviews).toEqual([]);
    expect((await post({ cat_id: cat, rating: 4 }, alice)).status).toBe(201);
  });

  it('refuses anyone but the author', async () => {
    const cat = await givenCat(t);
    const { body } = await post({ cat_id: cat, rating: 2 }, alice);
    const url = `/api/reviews/${body.review.id}`;
    expect((await call(t.app, 'DELETE', url, undefined, bob.token)).status).toBe(403);
    expect((await call(t.app, 'DELETE', url)).status).toBe(401);
    expect((await call(t.app, 'GET', `/api/reviews/cat/${cat}`)).body.reviews).toHaveLength(1);
  });

  it('answers 404 for a review that does not exist (or no longer does)', async () => {
    const cat = await givenCat(t);
    const { body } = await post({ cat_id: cat, rating: 2 }, alice);
    const url = `/api/reviews/${body.review.id}`;
    expect((await call(t.app, 'DELETE', url, undefined, alice.token)).status).toBe(200);
    expect((await call(t.app, 'DELETE', url, undefined, alice.token)).status).toBe(404);
    expect((await call(t.app, 'DELETE', '/api/reviews/999999', undefined, alice.token)).status).toBe(404);
    expect((await call(t.app, 'DELETE', '/api/reviews/nope', undefined, alice.token)).status).toBe(404);
  });
});

describe('deleting what was reviewed', () => {
  it('removes a deleted cat’s reviews', async () => {
    const bodega = await givenBodega(t);
    const cat = await givenCat(t, bodega);
    const other = await givenCat(t, bodega);
    await post({ cat_id: cat, rating: 5 }, alice);
    await post({ cat_id: other, rating: 3 }, alice);
    await post({ bodega_id: bodega, rating: 4 }, alice);
    await deleteCat(t, cat);
    expect((await call(t.app, 'GET', `/api/reviews/cat/${cat}`)).status).toBe(404);
    expect(await reviewCount('cat', cat)).toBe(0);
    expect(await reviewCount('cat', other)).toBe(1);
    expect(await reviewCount('bodega', bodega)).toBe(1);
  });

  it('removes a deleted bodega’s reviews and those of its cats', async () => {
    const bodega = await givenBodega(t);
    const cat = await givenCat(t, bodega);
    const elsewhere = await givenCat(t);
    await post({ cat_id: cat, rating: 5 }, bob);
    await post({ bodega_id: bodega, rating: 4 }, bob);
    await post({ cat_id: elsewhere, rating: 1 }, bob);
    await deleteBodega(t, bodega);
    expect(await reviewCount('bodega', bodega)).toBe(0);
    expect(await reviewCount('cat', cat)).toBe(0);
    expect(await reviewCount('cat', elsewhere)).toBe(1);
    expect((await call(t.app, 'GET', `/api/reviews/bodega/${bodega}`)).status).toBe(404);
    expect((await post({ bodega_id: bodega, rating: 4 }, alice)).status).toBe(404);
  });
});

async function reviewCount(type: 'cat' | 'bodega', id: number): Promise<number> {
  const rows = await t.services.database.db
    .selectFrom('reviews')
    .select('id')
    .where('target_type', '=', type)
    .where('target_id', '=', id)
    .execute();
  return rows.length;
}
