// Ids outside 1..2^53-1 (API.md, "Robustness of every route"): in a path they name nothing (404),
// in a body or a query they are bad input (400). Never a 500.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAppError } from '../../../server/http/error-handler.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { givenBodega, givenCat, givenPerson, type Person } from '../reviews/fixtures.ts';

const TOO_BIG = ['9007199254740992', '99999999999999999999', '1e20', '0', '-1'];

describe('ids outside 1..2^53-1', () => {
  let t: TestApp;
  let person: Person;
  let cat: number;
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    person = await givenPerson(t);
    cat = await givenCat(t, await givenBodega(t));
  });
  afterAll(async () => t.close());

  it('rejects a huge id in a review body with a 400 naming the field', async () => {
    for (const body of [
      { cat_id: 1e20, rating: 5 },
      { cat_id: 2 ** 53, rating: 5 },
      { bodega_id: 1e300, rating: 4 },
      { bodega_id: 0, rating: 4 },
      { cat_id: -3, rating: 4 },
    ]) {
      const res = await call(t.app, 'POST', '/api/reviews', body, person.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_input');
      expect(Object.keys(res.body.details)).toEqual([Object.keys(body)[0]]);
    }
    // The largest id is still an id: it simply names no cat.
    const largest = await call(
      t.app,
      'POST',
      '/api/reviews',
      { cat_id: 2 ** 53 - 1, rating: 5 },
      person.token,
    );
    expect(largest.status).toBe(404);
    expect((await call(t.app, 'POST', '/api/reviews', { cat_id: cat, rating: 5 }, person.token)).status).toBe(
      201,
    );
  });

  it('answers 404 for such ids in every kind of path', async () => {
    for (const id of [...TOO_BIG, '9007199254740991']) {
      const paths: [string, string][] = [
        ['GET', `/api/cats/${id}`],
        ['GET', `/api/bodegas/${id}`],
        ['DELETE', `/api/cats/${id}`],
        ['GET', `/api/reviews/cat/${id}`],
        ['DELETE', `/api/reviews/${id}`],
        ['PUT', `/api/cats/${id}/save`],
        ['DELETE', `/api/bodegas/${id}/save`],
        ['DELETE', `/api/cats/${cat}/photos/${id}`],
        ['PUT', `/api/cats/${cat}/photos/${id}/primary`],
      ];
      for (const [method, url] of paths) {
        const res = await call(t.app, method as 'GET', url, undefined, person.token);
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
    }
  });

  it('answers 400 for huge numbers in a query', async () => {
    for (const url of [
      '/api/search/bodegas?page=1e20',
      '/api/search/cats?page=99999999999999999999',
      `/api/reviews/cat/${cat}?per_page=9007199254740993`,
      '/api/search/bodegas?min_cats=1e20',
    ]) {
      const res = await call(t.app, 'GET', url);
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe('invalid_input');
    }
  });

  it('turns a numeric-range error of the database into a 400, not a 500', async () => {
    for (const query of [sql`select ${'1e20'}::numeric::bigint`, sql`select ${'12abc'}::bigint`]) {
      const error = await query.execute(t.services.database.db).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).not.toBeNull();
      const mapped = toAppError(error);
      expect(mapped?.statusCode).toBe(400);
      expect(mapped?.code).toBe('invalid_input');
    }
  });
});
