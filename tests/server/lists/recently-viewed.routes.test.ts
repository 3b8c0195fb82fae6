import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetViews, recordView } from '../../../server/lists/recently-viewed.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { addBodega, addCat, deleteBodega, deleteCat, signUp, type Member } from './fixtures.ts';

type Item = { type: 'cat' | 'bodega'; id: number; viewed_at: string };

describe('recently viewed', () => {
  let t: TestApp;
  let bodegaId: number;
  let catIds: number[];
  const at = (seconds: number) => new Date(Date.UTC(2026, 10, 21, 12, 0, 0) + seconds * 1000);

  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    bodegaId = await addBodega(t.services, 'Lucky Star Deli');
    catIds = [];
    for (let i = 0; i < 54; i++) catIds.push(await addCat(t.services, bodegaId, `Cat ${i}`));
  });
  afterAll(async () => t.close());

  const view = (member: Member, type: 'cat' | 'bodega', id: number, when: Date) =>
    recordView(t.services.database.db, member.id, type, id, when);
  const history = async (member: Member, query = '') => {
    const res = await call(t.app, 'GET', `/api/users/recently-viewed${query}`, undefined, member.token);
    expect(res.status).toBe(200);
    return res.body as { recently_viewed: Item[]; pagination: Record<string, number> };
  };
  const ids = (items: Item[]) => items.map((i) => `${i.type}-${i.id}`);
  const rowsOf = (member: Member) =>
    t.services.database.db
      .selectFrom('recently_viewed')
      .selectAll()
      .where('user_id', '=', member.id)
      .execute();

  it('refuses signed-out callers', async () => {
    expect((await call(t.app, 'GET', '/api/users/recently-viewed')).status).toBe(401);
    expect((await call(t.app, 'DELETE', '/api/users/clear-recently-viewed')).status).toBe(401);
  });

  it('lists cats and bodegas newest first in the contract shape', async () => {
    const me = await signUp(t);
    expect(await history(me)).toEqual({
      recently_viewed: [],
      pagination: { page: 1, per_page: 20, total: 0, pages: 0 },
    });
    await view(me, 'cat', catIds[0]!, at(0));
    await view(me, 'bodega', bodegaId, at(10));
    const { recently_viewed: items, pagination } = await history(me);
    expect(pagination).toEqual({ page: 1, per_page: 20, total: 2, pages: 1 });
    expect(items).toEqual([
      {
        type: 'bodega',
        id: bodegaId,
        name: 'Lucky Star Deli',
        address: `${bodegaId} Broadway, New York, NY`,
        description: 'Lucky Star Deli on Broadway',
        rating: 0,
        review_count: 0,
        primary_photo: null,
        primary_thumb: null,
        viewed_at: at(10).toISOString(),
      },
      {
        type: 'cat',
        id: catIds[0],
        name: 'Cat 0',
        bodega_name: 'Lucky Star Deli',
        address: `${bodegaId} Broadway, New York, NY`,
        description: 'Cat 0 guards the snacks',
        rating: 0,
        review_count: 0,
        primary_photo: null,
        primary_thumb: null,
        viewed_at: at(0).toISOString(),
      },
    ]);
  });

  it('keeps one entry per item and moves a repeat view to the top', async () => {
    const me = await signUp(t);
    await view(me, 'cat', catIds[0]!, at(0));
    await view(me, 'cat', catIds[1]!, at(10));
    await view(me, 'cat', catIds[2]!, at(20));
    await view(me, 'cat', catIds[0]!, at(30));
    const { recently_viewed: items } = await history(me);
    expect(ids(items)).toEqual([`cat-${catIds[0]}`, `cat-${catIds[2]}`, `cat-${catIds[1]}`]);
    expect(items[0]!.viewed_at).toBe(at(30).toISOString());
    expect(await rowsOf(me)).toHaveLength(3);
  });

  it('writes nothing for a repeat view within a second while the item is already on top', async () => {
    const me = await signUp(t);
    await view(me, 'cat', catIds[0]!, at(0));
    await view(me, 'cat', catIds[0]!, at(0.5));
    expect((await history(me)).recently_viewed[0]!.viewed_at).toBe(at(0).toISOString());
    await view(me, 'cat', catIds[0]!, at(0.999));
    expect((await history(me)).recently_viewed[0]!.viewed_at).toBe(at(0).toISOString());
    await view(me, 'cat', catIds[0]!, at(1.5));
    expect((await history(me)).recently_viewed[0]!.viewed_at).toBe(at(1.5).toISOString());
  });

  it('still moves an item back to the top when something else was viewed in between, however quickly', async () => {
    const me = await signUp(t);
    await view(me, 'cat', catIds[0]!, at(0));
    await view(me, 'cat', catIds[1]!, at(0.2));
    await view(me, 'cat', catIds[0]!, at(0.4));
    expect(ids((await history(me)).recently_viewed)).toEqual([`cat-${catIds[0]}`, `cat-${catIds[1]}`]);
  });

  it('keeps at most the 50 newest items', async () => {
    const me = await signUp(t);
    for (const [i, id] of catIds.entries()) await view(me, 'cat', id, at(i));
    await view(me, 'bodega', bodegaId, at(100));
    const all = await history(me, '?per_page=100');
    expect(all.pagination).toEqual({ page: 1, per_page: 100, total: 50, pages: 1 });
    expect(ids(all.recently_viewed)).toEqual([
      `bodega-${bodegaId}`,
      ...catIds
        .slice(5)
        .reverse()
        .map((id) => `cat-${id}`),
    ]);
    expect(await rowsOf(me)).toHaveLength(50);
    // A repeat view of something kept does not push anything out.
    await view(me, 'cat', catIds[20]!, at(200));
    expect(await rowsOf(me)).toHaveLength(50);
    expect((await history(me, '?per_page=1')).recently_viewed[0]!.id).toBe(catIds[20]);
  });

  it('pages the list', async () => {
    const me = await signUp(t);
    for (let i = 0; i < 5; i++) await view(me, 'cat', catIds[i]!, at(i));
    const page2 = await history(me, '?page=2&per_page=2');
    expect(page2.pagination).toEqual({ page: 2, per_page: 2, total: 5, pages: 3 });
    expect(ids(page2.recently_viewed)).toEqual([`cat-${catIds[2]}`, `cat-${catIds[1]}`]);
    const beyond = await history(me, '?page=9&per_page=2');
    expect(beyond.recently_viewed).toEqual([]);
    const bad = await call(t.app, 'GET', '/api/users/recently-viewed?per_page=500', undefined, me.token);
    expect(bad.status).toBe(400);
  });

  it('clears only the caller’s history', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    await view(me, 'cat', catIds[0]!, at(0));
    await view(other, 'cat', catIds[0]!, at(0));
    const res = await call(t.app, 'DELETE', '/api/users/clear-recently-viewed', undefined, me.token);
    expect(res).toMatchObject({ status: 200, body: { message: 'Recently viewed items cleared' } });
    expect((await history(me)).recently_viewed).toEqual([]);
    expect(await rowsOf(me)).toHaveLength(0);
    expect((await history(other)).recently_viewed).toHaveLength(1);
    const again = await call(t.app, 'DELETE', '/api/users/clear-recently-viewed', undefined, me.token);
    expect(again.status).toBe(200);
  });

  it('drops deleted cats and bodegas from the list, and forgets their views', async () => {
    const me = await signUp(t);
    const shop = await addBodega(t.services, 'Short-Lived Bodega');
    const shopCat = await addCat(t.services, shop, 'Fleeting');
    const doomed = await addCat(t.services, bodegaId, 'Doomed');
    await view(me, 'cat', catIds[0]!, at(0));
    await view(me, 'cat', doomed, at(1));
    await view(me, 'bodega', shop, at(2));
    await view(me, 'cat', shopCat, at(3));

    // Even before the views are forgotten, a deleted item never shows.
    await deleteCat(t.services, doomed, bodegaId);
    expect(ids((await history(me)).recently_viewed)).toEqual([
      `cat-${shopCat}`,
      `bodega-${shop}`,
      `cat-${catIds[0]}`,
    ]);
    await forgetViews(t.services.database.db, 'cat', [doomed]);
    expect((await rowsOf(me)).map((r) => Number(r.target_id))).not.toContain(doomed);

    await deleteBodega(t.services, shop);
    await t.services.database.db.transaction().execute(async (trx) => {
      await forgetViews(trx, 'cat', [shopCat]);
      await forgetViews(trx, 'bodega', [shop]);
      await forgetViews(trx, 'cat', []);
    });
    const { recently_viewed: items, pagination } = await history(me);
    expect(ids(items)).toEqual([`cat-${catIds[0]}`]);
    expect(pagination.total).toBe(1);
    expect(await rowsOf(me)).toHaveLength(1);
  });
});
