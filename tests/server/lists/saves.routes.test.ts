import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../server/domains.ts';
import { replay } from '../../../server/events/replay.ts';
import { streamIds } from '../../../server/events/types.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import {
  addBodega,
  addCat,
  BODEGA_SUMMARY_KEYS,
  CAT_SUMMARY_KEYS,
  deleteBodega,
  deleteCat,
  pause,
  signUp,
  type Member,
} from './fixtures.ts';

describe('saving cats and bodegas', () => {
  let t: TestApp;
  let alice: Member;
  let bob: Member;
  let bodegaId: number;
  let catId: number;

  const savesOf = (userId: number) =>
    t.services.database.db.selectFrom('saves').selectAll().where('user_id', '=', userId).execute();
  const eventsOf = (userId: number) =>
    t.services.database.db
      .selectFrom('events')
      .select('type')
      .where('stream_id', '=', streamIds.saves(userId))
      .orderBy('global_position')
      .execute();

  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    alice = await signUp(t, 'alice');
    bob = await signUp(t, 'bob');
    bodegaId = await addBodega(t.services, 'Sunrise Deli', alice.id);
    catId = await addCat(t.services, bodegaId, 'Mango', alice.id);
  });
  afterAll(async () => t.close());

  it('refuses every save and list route when signed out', async () => {
    for (const [method, url] of [
      ['POST', `/api/cats/${catId}/save`],
      ['DELETE', `/api/cats/${catId}/save`],
      ['POST', `/api/bodegas/${bodegaId}/save`],
      ['DELETE', `/api/bodegas/${bodegaId}/save`],
      ['GET', '/api/users/savedcats'],
      ['GET', '/api/users/savedbodegas'],
    ] as const) {
      const res = await call(t.app, method, url);
      expect(res.status, `${method} ${url}`).toBe(401);
      expect(res.body).toEqual({ error: expect.any(String), code: 'unauthorized' });
    }
    const garbage = await call(t.app, 'POST', `/api/cats/${catId}/save`, undefined, 'not-a-token');
    expect(garbage.status).toBe(401);
    expect(await savesOf(alice.id)).toEqual([]);
  });

  it('answers 404 for a cat or bodega that does not exist', async () => {
    for (const url of [
      '/api/cats/999999/save',
      '/api/bodegas/999999/save',
      '/api/cats/abc/save',
      '/api/cats/0/save',
    ]) {
      for (const method of ['POST', 'DELETE'] as const) {
        const res = await call(t.app, method, url, undefined, bob.token);
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.body.code).toBe('not_found');
      }
    }
    // A cat id is not a bodega id.
    const mixed = await call(t.app, 'POST', `/api/bodegas/${catId + 1000}/save`, undefined, bob.token);
    expect(mixed.status).toBe(404);
    expect(await eventsOf(bob.id)).toEqual([]);
  });

  it('keeps one entry and one event when the same cat is saved twice', async () => {
    const first = await call(t.app, 'POST', `/api/cats/${catId}/save`, undefined, bob.token);
    const second = await call(t.app, 'POST', `/api/cats/${catId}/save`, undefined, bob.token);
    expect(first).toMatchObject({ status: 200, body: { saved: true } });
    expect(second).toMatchObject({ status: 200, body: { saved: true } });
    expect(await savesOf(bob.id)).toHaveLength(1);
    expect(await eventsOf(bob.id)).toEqual([{ type: 'ItemSaved' }]);
    const list = await call(t.app, 'GET', '/api/users/savedcats', undefined, bob.token);
    expect(list.body.saved_cats.map((c: { id: number }) => c.id)).toEqual([catId]);
  });

  it('keeps one entry when two saves of the same cat race', async () => {
    const other = await addCat(t.services, bodegaId, 'Pepper');
    const results = await Promise.all(
      Array.from({ length: 4 }, () => call(t.app, 'POST', `/api/cats/${other}/save`, undefined, alice.token)),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect((await savesOf(alice.id)).filter((s) => Number(s.target_id) === other)).toHaveLength(1);
    expect(await eventsOf(alice.id)).toEqual([{ type: 'ItemSaved' }]);
    await call(t.app, 'DELETE', `/api/cats/${other}/save`, undefined, alice.token);
  });

  it('unsaves idempotently', async () => {
    const cat = await addCat(t.services, bodegaId, 'Biscuit');
    await call(t.app, 'POST', `/api/cats/${cat}/save`, undefined, bob.token);
    const first = await call(t.app, 'DELETE', `/api/cats/${cat}/save`, undefined, bob.token);
    const again = await call(t.app, 'DELETE', `/api/cats/${cat}/save`, undefined, bob.token);
    expect(first).toMatchObject({ status: 200, body: { saved: false } });
    expect(again).toMatchObject({ status: 200, body: { saved: false } });
    expect((await eventsOf(bob.id)).map((e) => e.type)).toEqual(['ItemSaved', 'ItemSaved', 'ItemUnsaved']);
    const list = await call(t.app, 'GET', '/api/users/savedcats', undefined, bob.token);
    expect(list.body.saved_cats.map((c: { id: number }) => c.id)).toEqual([catId]);
  });

  it('lists saved cats as cat summaries with saved_at, newest first, paged', async () => {
    const carol = await signUp(t, 'carol');
    const cats = [
      await addCat(t.services, bodegaId, 'Olive'),
      await addCat(t.services, bodegaId, 'Noodle'),
      await addCat(t.services, bodegaId, 'Tofu'),
    ];
    for (const id of cats) {
      await call(t.app, 'POST', `/api/cats/${id}/save`, undefined, carol.token);
      await pause(5);
    }
    const page1 = await call(t.app, 'GET', '/api/users/savedcats?page=1&per_page=2', undefined, carol.token);
    expect(page1.status).toBe(200);
    expect(page1.body.pagination).toEqual({ page: 1, per_page: 2, total: 3, pages: 2 });
    expect(page1.body.saved_cats.map((c: { name: string }) => c.name)).toEqual(['Tofu', 'Noodle']);
    const page2 = await call(t.app, 'GET', '/api/users/savedcats?page=2&per_page=2', undefined, carol.token);
    expect(page2.body.saved_cats.map((c: { name: string }) => c.name)).toEqual(['Olive']);

    const tofu = page1.body.saved_cats[0];
    expect(Object.keys(tofu).sort()).toEqual([...CAT_SUMMARY_KEYS, 'saved_at'].sort());
    expect(tofu).toMatchObject({
      id: cats[2],
      bodega_id: bodegaId,
      bodega_name: 'Sunrise Deli',
      rating: 0,
      review_count: 0,
      primary_photo: null,
      primary_thumb: null,
      is_friendly: true,
    });
    expect(tofu.saved_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(page1.body.saved_cats[0].saved_at)).toBeGreaterThan(
      Date.parse(page2.body.saved_cats[0].saved_at),
    );

    const defaults = await call(t.app, 'GET', '/api/users/savedcats', undefined, carol.token);
    expect(defaults.body.pagination).toEqual({ page: 1, per_page: 20, total: 3, pages: 1 });
    // Someone else's saves are not mine.
    const mine = await call(t.app, 'GET', '/api/users/savedcats', undefined, bob.token);
    expect(mine.body.saved_cats.map((c: { id: number }) => c.id)).toEqual([catId]);
  });

  it('rejects bad paging with a 400 naming the field', async () => {
    for (const query of ['per_page=101', 'per_page=0', 'page=0', 'page=x']) {
      const res = await call(t.app, 'GET', `/api/users/savedbodegas?${query}`, undefined, bob.token);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('invalid_input');
      expect(Object.keys(res.body.details)).toEqual([query.split('=')[0]]);
    }
  });

  it('lists saved bodegas as bodega summaries with saved_at', async () => {
    const res = await call(t.app, 'POST', `/api/bodegas/${bodegaId}/save`, undefined, bob.token);
    expect(res).toMatchObject({ status: 200, body: { saved: true } });
    const list = await call(t.app, 'GET', '/api/users/savedbodegas', undefined, bob.token);
    expect(list.status).toBe(200);
    expect(list.body.pagination).toEqual({ page: 1, per_page: 20, total: 1, pages: 1 });
    const [bodega] = list.body.saved_bodegas;
    expect(Object.keys(bodega).sort()).toEqual([...BODEGA_SUMMARY_KEYS, 'saved_at'].sort());
    expect(bodega).toMatchObject({
      id: bodegaId,
      name: 'Sunrise Deli',
      created_by: alice.id,
      is_verified: false,
    });
  });

  it('returns the first result for a retried save with the same Idempotency-Key', async () => {
    const cat = await addCat(t.services, bodegaId, 'Clementine');
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/cats/${cat}/save`,
        headers: { authorization: `Bearer ${bob.token}`, 'idempotency-key': 'save-clementine-1' },
      });
    const first = await send();
    const retry = await send();
    expect(first.statusCode).toBe(200);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual({ saved: true });
    expect(retry.headers['idempotent-replayed']).toBe('true');
    await call(t.app, 'DELETE', `/api/cats/${cat}/save`, undefined, bob.token);
  });

  it('drops saves of a deleted cat, and of a deleted bodega and its cats', async () => {
    const dave = await signUp(t, 'dave');
    const shop = await addBodega(t.services, 'Night Owl Grocery');
    const kept = await addCat(t.services, shop, 'Pickles');
    const gone = await addCat(t.services, shop, 'Smudge');
    for (const url of [
      `/api/cats/${kept}/save`,
      `/api/cats/${gone}/save`,
      `/api/bodegas/${shop}/save`,
      `/api/bodegas/${bodegaId}/save`,
    ])
      await call(t.app, 'POST', url, undefined, dave.token);

    await deleteCat(t.services, gone, shop);
    const afterCat = await call(t.app, 'GET', '/api/users/savedcats', undefined, dave.token);
    expect(afterCat.body.saved_cats.map((c: { id: number }) => c.id)).toEqual([kept]);
    expect(afterCat.body.pagination.total).toBe(1);
    expect((await call(t.app, 'POST', `/api/cats/${gone}/save`, undefined, dave.token)).status).toBe(404);

    await deleteBodega(t.services, shop);
    const cats = await call(t.app, 'GET', '/api/users/savedcats', undefined, dave.token);
    const bodegas = await call(t.app, 'GET', '/api/users/savedbodegas', undefined, dave.token);
    expect(cats.body).toEqual({ saved_cats: [], pagination: { page: 1, per_page: 20, total: 0, pages: 0 } });
    expect(bodegas.body.saved_bodegas.map((b: { id: number }) => b.id)).toEqual([bodegaId]);
    expect((await savesOf(dave.id)).map((s) => Number(s.target_id))).toEqual([bodegaId]);
  });

  it('rebuilds the same saves from the log on replay', async () => {
    const before = await t.services.database.db
      .selectFrom('saves')
      .selectAll()
      .orderBy('user_id')
      .orderBy('target_type')
      .orderBy('target_id')
      .execute();
    expect(before.length).toBeGreaterThan(2);
    const verified = await replay(t.services.database, projections, { verify: true });
    expect(verified.differences.find((d) => d.table === 'saves')).toMatchObject({ same: true });
    await replay(t.services.database, projections);
    const after = await t.services.database.db
      .selectFrom('saves')
      .selectAll()
      .orderBy('user_id')
      .orderBy('target_type')
      .orderBy('target_id')
      .execute();
    expect(after).toEqual(before);
  });
});
