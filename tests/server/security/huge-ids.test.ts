// Ids outside 1..2^53-1 (API.md, "Robustness of every route"): in a path they name nothing (404),
// in a body or a query they are bad input (400). Never a 500.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAppError } from '../../../server/http/error-handler.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { buildWorld, person as personOf, request, smallPng } from '../../helpers/world.ts';
import { multipartForm } from '../../helpers/multipart-form.ts';
import { ID_ENDPOINTS, urlOf, type Endpoint } from '../fuzz/endpoints.ts';
import { givenBodega, givenCat, givenPerson, type Person } from '../reviews/fixtures.ts';

const TOO_BIG = ['9007199254740992', '99999999999999999999', '1e20', '0', '-1'];

describe('ids outside 1..2^53-1', () => {
  let t: TestApp;
  let person: Person;
  let owner: Awaited<ReturnType<typeof personOf>>;
  let cat: number;
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    person = await givenPerson(t);
    owner = await personOf(t, 'owner');
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

  it('answers 404 for such ids in every path of the contract, id and photo id alike', async () => {
    const world = await buildWorld(t, { creator: owner, uploader: owner, reviewer: owner });
    const form = multipartForm([
      { name: 'photo', filename: 'cat.png', contentType: 'image/png', data: await smallPng() },
    ]);
    const endpoints = [...ID_ENDPOINTS, { method: 'DELETE', path: '/api/reviews/:id' } as Endpoint];
    for (const e of endpoints) {
      for (const id of [...TOO_BIG, '9007199254740991']) {
        const bad = [urlOf(e, world, { id })];
        if (e.path.includes(':photoId')) bad.push(urlOf(e, world, { photoId: id }));
        for (const url of bad) {
          // Everything else about the request is right: the owner asks, with a valid body.
          const res = await request(t, e.method, url, {
            as: owner,
            body: e.body === 'multipart' ? form.payload : e.validBody?.(world),
            headers: e.body === 'multipart' ? form.headers : undefined,
          });
          expect(res.status, `${e.method} ${url}`).toBe(404);
          expect(res.body.code).toBe('not_found');
          expect(res.body.error, `${e.method} ${url} is a route`).not.toMatch(/^No route/);
        }
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
