import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextId } from '../../../server/events/store.ts';
import { streamIds } from '../../../server/events/types.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { storageMode } from '../../helpers/storage.ts';

const shop = (id: number, name: string) => ({
  type: 'BodegaAdded' as const,
  data: {
    bodega_id: id,
    created_by: null,
    name,
    address: '9 Test St, New York, NY',
    latitude: 40.7,
    longitude: -74,
    description: '',
    phone: '',
    hours: '',
  },
});
const cat = (id: number, bodegaId: number, name: string) => ({
  type: 'CatAdded' as const,
  data: {
    cat_id: id,
    bodega_id: bodegaId,
    created_by: null,
    name,
    description: '',
    age: '',
    breed: '',
    sex: '' as const,
    personality: '',
    color: '',
    weight: '',
    is_friendly: true,
  },
});

describe('the search vocabulary under concurrent writers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
  });
  afterAll(async () => t.close());

  // Embedded storage has one session, so its transactions cannot interleave.
  it.skipIf(storageMode() === 'pglite')(
    'lets two writers add the same new words in opposite orders without a deadlock',
    async () => {
      const { db } = t.services.database;
      const { store } = t.services;
      const ids = {
        shopA: await nextId(db, 'bodega_ids'),
        shopB: await nextId(db, 'bodega_ids'),
        catA: await nextId(db, 'cat_ids'),
        catB: await nextId(db, 'cat_ids'),
      };
      let release!: () => void;
      const bothStarted = new Promise<void>((resolve) => (release = resolve));
      let started = 0;
      const step = () => {
        if (++started === 2) release();
        return bothStarted;
      };
      // Each writer adds one new word with its shop, waits for the other, then adds the other's.
      const writer = (shopId: number, shopName: string, catId: number, catName: string) =>
        db.transaction().execute(async (trx) => {
          await store.append(trx, streamIds.bodega(shopId), 0, [shop(shopId, shopName)]);
          await step();
          await store.append(trx, streamIds.cat(catId), 0, [cat(catId, shopId, catName)]);
        });
      await Promise.all([
        writer(ids.shopA, 'Zyzzyva Deli', ids.catA, 'Aardwolf'),
        writer(ids.shopB, 'Aardwolf Market', ids.catB, 'Zyzzyva'),
      ]);
      const words = await db.selectFrom('search_words').select('word').execute();
      expect(words.map((w) => w.word)).toEqual(expect.arrayContaining(['zyzzyva', 'aardwolf']));
      const res = await call(t.app, 'GET', '/api/search/cats?q=zyzzyba');
      expect(res.body.cats.map((c: { name: string }) => c.name).sort()).toEqual(['Aardwolf', 'Zyzzyva']);
    },
  );

  it('learns the words of new and edited entries', async () => {
    const { db } = t.services.database;
    const shopId = await nextId(db, 'bodega_ids');
    const catId = await nextId(db, 'cat_ids');
    await t.services.store.append(db, streamIds.bodega(shopId), 0, [shop(shopId, 'Quetzal Grocery')]);
    await t.services.store.append(db, streamIds.cat(catId), 0, [cat(catId, shopId, 'Xolotl')]);
    const words = (await db.selectFrom('search_words').select('word').execute()).map((w) => w.word);
    expect(words).toEqual(expect.arrayContaining(['quetzal', 'grocery', 'xolotl', 'test']));
    expect(words).not.toContain('st');
  });
});
