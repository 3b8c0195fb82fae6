import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../server/domains.ts';
import { replay } from '../../../server/events/replay.ts';
import { nextId } from '../../../server/events/store.ts';
import { resolveText } from '../../../server/search/text.ts';
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
const cat = (id: number, bodegaId: number, name: string, description = '') => ({
  type: 'CatAdded' as const,
  data: {
    cat_id: id,
    bodega_id: bodegaId,
    created_by: null,
    name,
    description,
    age: '',
    breed: '',
    sex: '' as const,
    personality: '',
    color: '',
    weight: '',
    is_friendly: true,
  },
});

/** A point two transactions both reach before either goes on. */
function meetingOfTwo(): () => Promise<void> {
  let arrived = 0;
  let release!: () => void;
  const bothThere = new Promise<void>((resolve) => (release = resolve));
  return () => {
    if (++arrived === 2) release();
    return bothThere;
  };
}

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
      const step = meetingOfTwo();
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
    expect(words).toEqual(expect.arrayContaining(['quetzal', 'grocery', 'xolotl', 'test', 'st']));
  });

  it('holds every lexeme of every document, short ones too, so a widened word finds what its prefix does', async () => {
    const { db } = t.services.database;
    const shopId = await nextId(db, 'bodega_ids');
    const catId = await nextId(db, 'cat_ids');
    const long = `Pneumonoultramicroscopicsilicovolcanoconiosisish${shopId}`;
    const description = `${long} see http://example.test/o'neil\\x café-au-lait mail me@example.test, Jr. II`;
    await t.services.store.append(db, streamIds.bodega(shopId), 0, [shop(shopId, 'Ampersand Deli')]);
    await t.services.store.append(db, streamIds.cat(catId), 0, [cat(catId, shopId, 'Quillon', description)]);

    const { rows: missing } = await sql<{ lexeme: string }>`
      select distinct lexeme from (
        select (unnest(search_doc)).lexeme from cats union all select (unnest(search_doc)).lexeme from bodegas
      ) used
      where not exists (select 1 from search_words s where s.word = used.lexeme)`.execute(db);
    expect(missing).toEqual([]);

    // The widened query and the plain prefix find the same documents, for words the vocabulary
    // holds with a quote, a backslash, a hyphen or more than forty letters, and for short words.
    for (const typed of ['pneumonoultra', 'example', 'caf', 'quill', 'jr', 'ii', 'st']) {
      const prefix = await sql<{ id: number }>`
        select id from cats where search_doc @@ to_tsquery('simple', ${`${typed}:*`}) order by id`.execute(
        db,
      );
      const res = await call(t.app, 'GET', `/api/search/cats?q=${encodeURIComponent(typed)}&per_page=100`);
      expect(res.status).toBe(200);
      const found = res.body.cats.map((c: { id: number }) => c.id).sort((a: number, b: number) => a - b);
      expect(found, typed).toEqual(prefix.rows.map((r) => Number(r.id)));
      expect(found, typed).toContain(catId);
    }
    // A short word is widened like a long one: the index answers the exact lexemes it stands for.
    const resolved = await resolveText(db, { words: ['jr', 'ii'] });
    expect(resolved?.tsquery).toBe("'jr' & 'ii'");
  });

  it.skipIf(storageMode() === 'pglite')(
    'keeps a new word its other writer rolled back, and reads a word two writers added as one',
    async () => {
      const { db } = t.services.database;
      const { store } = t.services;
      const word = `zorilla${await nextId(db, 'bodega_ids')}`;
      const [kept, rolledBack] = [await nextId(db, 'bodega_ids'), await nextId(db, 'bodega_ids')];
      const step = meetingOfTwo();
      // Both add the same new word and wait for each other before they end, so neither sees the
      // other's row: one commits, the other rolls back.
      const writer = (shopId: number, commit: boolean) =>
        db.transaction().execute(async (trx) => {
          await store.append(trx, streamIds.bodega(shopId), 0, [shop(shopId, `${word} Deli`)]);
          await step();
          if (!commit) throw new Error('rolled back');
        });
      const outcomes = await Promise.allSettled([writer(kept, true), writer(rolledBack, false)]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
      const res = await call(t.app, 'GET', `/api/search/bodegas?q=${word.slice(0, -2)}`);
      expect(res.body.bodegas.map((b: { id: number }) => b.id)).toEqual([kept]);

      // Two writers that both commit leave the word twice; replay writes it once and its check
      // reads the vocabulary as a set, so it finds nothing different.
      const twice = `zorille${await nextId(db, 'bodega_ids')}`;
      const [a, b] = [await nextId(db, 'bodega_ids'), await nextId(db, 'bodega_ids')];
      const meet = meetingOfTwo();
      const again = (shopId: number) =>
        db.transaction().execute(async (trx) => {
          await store.append(trx, streamIds.bodega(shopId), 0, [shop(shopId, `${twice} Deli`)]);
          await meet();
        });
      await Promise.all([again(a), again(b)]);
      const rows = await db.selectFrom('search_words').select('word').where('word', '=', twice).execute();
      expect(rows).toHaveLength(2);
      const found = await call(t.app, 'GET', `/api/search/bodegas?q=${twice}`);
      expect(found.body.bodegas.map((x: { id: number }) => x.id).sort()).toEqual([a, b].sort());
      const verified = await replay(t.services.database, projections, { verify: true });
      expect(verified.differences.filter((d) => !d.same)).toEqual([]);
    },
  );
});
