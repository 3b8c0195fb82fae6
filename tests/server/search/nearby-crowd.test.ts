import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextId } from '../../../server/events/store.ts';
import { streamIds, type NewEvent } from '../../../server/events/types.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';

// More than a thousand cats in one circle, so that pages come from walking the index nearest
// first rather than from sorting every match: 110 shops on a line north of Flushing, 20 m apart,
// ten cats each (ties at every address); in every other shop one cat is not friendly.
const ORIGIN = { lat: 40.7675, lng: -73.833 };
const SHOPS = 110;
const CATS_PER_SHOP = 10;

type Cat = { id: number; shop: number; friendly: boolean };

describe('nearby search in a crowded neighbourhood', () => {
  let t: TestApp;
  const cats: Cat[] = [];
  const nearby = (query: string) =>
    call(t.app, 'GET', `/api/search/nearby?lat=${ORIGIN.lat}&lng=${ORIGIN.lng}&radius=3&${query}`);
  /** The contract's order: nearest first, then by id. */
  const expected = (keep: (c: Cat) => boolean) =>
    cats
      .filter(keep)
      .sort((a, b) => a.shop - b.shop || a.id - b.id)
      .map((c) => c.id);

  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    const { db } = t.services.database;
    // A transaction per shop: one for the whole crowd would hold back the log's horizon, which the
    // whole server shares, and with it every other test's consumers, for as long as it ran.
    for (let shop = 0; shop < SHOPS; shop++) {
      await db.transaction().execute(async (trx) => {
        const shopId = await nextId(trx, 'bodega_ids');
        await t.services.store.append(trx, streamIds.bodega(shopId), 0, [
          {
            type: 'BodegaAdded',
            data: {
              bodega_id: shopId,
              created_by: null,
              name: `Crowd Deli ${shop}`,
              address: `${shop} Main St, Queens, NY`,
              latitude: ORIGIN.lat + shop * 0.00018,
              longitude: ORIGIN.lng,
              description: '',
              phone: '',
              hours: '',
            },
          },
        ]);
        for (let n = 0; n < CATS_PER_SHOP; n++) {
          const id = await nextId(trx, 'cat_ids');
          const friendly = !(shop % 2 === 1 && n === 3);
          const added: NewEvent = {
            type: 'CatAdded',
            data: {
              cat_id: id,
              bodega_id: shopId,
              created_by: null,
              name: `Crowd ${shop}-${n}`,
              description: '',
              age: '',
              breed: '',
              sex: '',
              personality: '',
              color: '',
              weight: '',
              is_friendly: friendly,
            },
          };
          await t.services.store.append(trx, streamIds.cat(id), 0, [added]);
          cats.push({ id, shop, friendly });
        }
      });
    }
  });
  afterAll(async () => t.close());

  it('pages through every cat nearest first, ties by id', async () => {
    const all = expected(() => true);
    for (const page of [1, 2, 40]) {
      const res = await nearby(`per_page=7&page=${page}`);
      expect(res.body.pagination).toEqual({ page, per_page: 7, total: 1100, pages: 158, total_exact: true });
      expect(res.body.cats.map((c: { id: number }) => c.id)).toEqual(all.slice((page - 1) * 7, page * 7));
    }
  });

  it('pages through the friendly ones the same way', async () => {
    const friendly = expected((c) => c.friendly);
    expect(friendly).toHaveLength(1045);
    for (const page of [1, 3, 25]) {
      const res = await nearby(`is_friendly=true&per_page=9&page=${page}`);
      expect(res.body.pagination.total).toBe(1045);
      expect(res.body.cats.map((c: { id: number }) => c.id)).toEqual(
        friendly.slice((page - 1) * 9, page * 9),
      );
    }
    const unfriendly = await nearby('is_friendly=false&per_page=100');
    expect(unfriendly.body.cats.map((c: { id: number }) => c.id)).toEqual(expected((c) => !c.friendly));
  });
});
