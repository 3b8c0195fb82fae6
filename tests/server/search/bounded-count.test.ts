import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextId } from '../../../server/events/store.ts';
import { streamIds, type NewEvent } from '../../../server/events/types.ts';
import { COUNT_BOUND } from '../../../server/search/ranked-page.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';

// More matches than the counting bound: 66 Pumpkin Delis with 20 cats each, every cat named
// "Pumpkin <n>" and living at a Pumpkin Deli; one in ten is a Siamese. Only the first cat added is
// named plainly "Pumpkin", and only one (also early) plainly "Deli".
const SHOPS = 66;
const CATS_PER_SHOP = 20;
const ALL = SHOPS * CATS_PER_SHOP;

describe('search totals past the counting bound', () => {
  let t: TestApp;
  let pumpkin = 0;
  let deli = 0;
  const search = async (query: string) => {
    const res = await call(t.app, 'GET', `/api/search/cats?${query}`);
    expect(res.status, query).toBe(200);
    return res.body as {
      cats: { id: number; name: string }[];
      pagination: { total: number; total_exact: boolean; pages: number };
    };
  };

  beforeAll(async () => {
    expect(ALL).toBeGreaterThan(COUNT_BOUND);
    t = await createTestApp({ worker: false });
    // A transaction per shop: one for the whole crowd would hold back the log's horizon, which the
    // whole server shares, and with it every other test's consumers, for as long as it ran.
    for (let shop = 0; shop < SHOPS; shop++) {
      await t.services.database.db.transaction().execute(async (trx) => {
        const shopId = await nextId(trx, 'bodega_ids');
        await t.services.store.append(trx, streamIds.bodega(shopId), 0, [
          {
            type: 'BodegaAdded',
            data: {
              bodega_id: shopId,
              created_by: null,
              name: `Pumpkin Deli ${shop}`,
              address: `${shop} Court St, Brooklyn, NY`,
              latitude: null,
              longitude: null,
              description: '',
              phone: '',
              hours: '',
            },
          },
        ]);
        for (let n = 0; n < CATS_PER_SHOP; n++) {
          const id = await nextId(trx, 'cat_ids');
          const index = shop * CATS_PER_SHOP + n;
          const name = index === ALL - 1 ? 'Pumpkin' : index === ALL - 2 ? 'Deli' : `Pumpkin ${index}`;
          if (index === ALL - 1) pumpkin = id;
          if (index === ALL - 2) deli = id;
          const added: NewEvent = {
            type: 'CatAdded',
            data: {
              cat_id: id,
              bodega_id: shopId,
              created_by: null,
              name,
              description: '',
              age: '',
              breed: index % 10 === 0 ? 'Siamese' : 'Tabby',
              sex: '',
              personality: '',
              color: '',
              weight: '',
              is_friendly: true,
            },
          };
          await t.services.store.append(trx, streamIds.cat(id), 0, [added]);
        }
      });
    }
  });
  afterAll(async () => t.close());

  it('estimates a total past the bound and says so', async () => {
    for (const query of ['q=pumpkin', 'q=deli', '', 'breed=Tabby']) {
      const { pagination } = await search(query);
      expect(pagination.total_exact, query).toBe(false);
      expect(pagination.total, query).toBeGreaterThan(COUNT_BOUND);
      expect(pagination.total, query).toBeLessThan(2 * ALL);
    }
  });

  it('counts exactly up to the bound', async () => {
    const { pagination, cats } = await search('q=pumpkin&breed=Siamese&per_page=100');
    expect(pagination).toMatchObject({ total: ALL / 10, total_exact: true, pages: 2 });
    expect(cats).toHaveLength(100);
  });

  it('still puts the one exact name first among more matches than it ranks', async () => {
    expect((await search('q=pumpkin')).cats[0]!.id).toBe(pumpkin);
    expect((await search('q=deli')).cats[0]!.id).toBe(deli);
    // Then names starting with the query, before cats that only live at a Pumpkin Deli.
    const names = (await search('q=pumpkin&per_page=5')).cats.map((c) => c.name);
    expect(names.slice(1).every((n) => n.startsWith('Pumpkin '))).toBe(true);
  });

  it('serves pages past the ranked candidates without repeats', async () => {
    const page = async (n: number) =>
      (await search(`q=pumpkin&per_page=100&page=${n}`)).cats.map((c) => c.id);
    const [eleven, twelve] = [await page(11), await page(12)];
    expect(eleven).toHaveLength(100);
    expect(twelve).toHaveLength(100);
    expect(new Set([...eleven, ...twelve]).size).toBe(200);
  });

  it('suggests the one exact name first among more names than it ranks', async () => {
    const res = await call(t.app, 'GET', '/api/search/suggest?q=pumpkin&type=cats&limit=3');
    expect(res.status).toBe(200);
    const [first, ...rest] = res.body.suggestions as { id: number; label: string }[];
    expect(first!.id).toBe(pumpkin);
    expect(rest.map((s) => s.label)).toEqual([
      expect.stringMatching(/^Pumpkin \d+$/),
      expect.stringMatching(/^Pumpkin \d+$/),
    ]);
  });
});
