import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { addBodega, addCat, buildWorld, type World } from './fixture.ts';

const names = (body: { cats?: { name: string }[]; bodegas?: { name: string }[] }) =>
  (body.cats ?? body.bodegas ?? []).map((x) => x.name);

describe('text search', () => {
  let t: TestApp;
  let world: World;
  const search = (query: string) => call(t.app, 'GET', `/api/search/cats?${query}`);

  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    world = await buildWorld(t.services);
  });
  afterAll(async () => t.close());

  it('finds a cat from a misspelt name', async () => {
    for (const q of ['wiskers', 'whiskrs', 'Whsikers']) {
      const res = await search(`q=${q}`);
      expect(res.status).toBe(200);
      expect(names(res.body)[0]).toBe('Whiskers the Tabby');
    }
  });

  it('finds a cat from the start of a word', async () => {
    expect(names((await search('q=mitt')).body)).toEqual(['Mittens']);
  });

  it('matches words across fields in any order', async () => {
    expect(names((await search('q=tabby%20whiskers')).body)[0]).toBe('Whiskers the Tabby');
    expect(names((await search('q=whiskers%20tabby')).body)[0]).toBe('Whiskers the Tabby');
    // Breed and borough live in different fields.
    expect(names((await search('q=brooklyn%20shy')).body)).toEqual(['Mittens']);
  });

  it('ranks a name match over a bodega name over a description', async () => {
    const res = await search('q=whiskers');
    expect(names(res.body).slice(0, 3)).toEqual(['Whiskers the Tabby', 'Milo', 'Ginger']);
  });

  it('lists every cat, newest first, for an empty or blank query', async () => {
    const all = Object.values(world.cats).sort((a, b) => b - a);
    for (const query of ['', 'q=', 'q=%20%20']) {
      const res = await search(query);
      expect(res.status).toBe(200);
      expect(res.body.cats.map((c: { id: number }) => c.id)).toEqual(all);
      expect(res.body.pagination).toEqual({
        page: 1,
        per_page: 20,
        total: all.length,
        pages: 1,
        total_exact: true,
      });
    }
  });

  it('returns summaries in the contract shape, without a distance', async () => {
    const [cat] = (await search('q=shadow')).body.cats;
    expect(cat).toEqual({
      id: world.cats.shadow,
      name: 'Shadow',
      bodega_id: world.bodegas.bronx,
      bodega_name: 'Concourse Market',
      address: '300 Grand Concourse, Bronx, NY',
      latitude: 40.82,
      longitude: -73.925,
      description: '',
      age: '',
      breed: 'TABBY',
      sex: '',
      personality: 'friendly',
      color: 'Black',
      weight: '',
      is_friendly: true,
      rating: 5,
      review_count: 3,
      primary_photo: null,
      primary_thumb: null,
      created_by: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it('treats SQL and wildcard characters as plain text', async () => {
    const sqlish = await search(`q=${encodeURIComponent("Robert'); DROP TABLE cats;--")}`);
    expect(sqlish.status).toBe(200);
    expect(names(sqlish.body)[0]).toBe("Robert'); DROP TABLE cats;--");
    for (const q of ['%', '_', '%%', "'", '\\', '%_%', "' OR '1'='1", '"']) {
      const res = await search(`q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(res.body.pagination.total, q).toBeLessThan(Object.keys(world.cats).length);
    }
    expect((await search(`q=${encodeURIComponent('%')}`)).body.cats).toEqual([]);
    expect((await search(`q=${encodeURIComponent('\\')}`)).body.cats).toEqual([]);
    // The text around the symbols still counts.
    expect(names((await search(`q=${encodeURIComponent('cat_ish%')}`)).body)).toEqual([
      "Robert'); DROP TABLE cats;--",
    ]);
    expect(names((await search(`q=${encodeURIComponent('back\\slash')}`)).body)[0]).toBe(
      "Robert'); DROP TABLE cats;--",
    );
    // The table is still there.
    expect((await search('')).body.pagination.total).toBe(Object.keys(world.cats).length);
  });

  it('pages the results with exact totals', async () => {
    const first = await search('per_page=3');
    expect(first.body.pagination).toEqual({ page: 1, per_page: 3, total: 7, pages: 3, total_exact: true });
    const third = await search('per_page=3&page=3');
    expect(third.body.cats).toHaveLength(1);
    const past = await search('per_page=3&page=9');
    expect(past.body.cats).toEqual([]);
    expect(past.body.pagination).toEqual({ page: 9, per_page: 3, total: 7, pages: 3, total_exact: true });
    const ids = [first, await search('per_page=3&page=2'), third].flatMap((r) =>
      r.body.cats.map((c: { id: number }) => c.id),
    );
    expect(new Set(ids).size).toBe(7);
  });

  it('pages text results without repeating or losing a match', async () => {
    const whole = (await search('q=tabby&per_page=100')).body;
    const paged = [];
    for (let page = 1; page <= whole.pagination.total; page++)
      paged.push(...(await search(`q=tabby&per_page=1&page=${page}`)).body.cats);
    expect(paged.map((c) => c.id)).toEqual(whole.cats.map((c: { id: number }) => c.id));
  });

  it('searches bodegas by name and address, typos included', async () => {
    const res = await call(t.app, 'GET', '/api/search/bodegas?q=consourse');
    expect(res.status).toBe(200);
    expect(names(res.body)[0]).toBe('Concourse Market');
    expect(names((await call(t.app, 'GET', '/api/search/bodegas?q=bedford%20golden')).body)).toEqual([
      'Golden Grocery',
    ]);
    const all = await call(t.app, 'GET', '/api/search/bodegas');
    expect(all.body.pagination.total).toBe(5);
    expect(all.body.bodegas[0]).toMatchObject({ name: 'Mystery Mart', latitude: null, cat_count: 1 });
  });
});

describe('exact-first ranking', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
  });
  afterAll(async () => t.close());

  it('puts the exact name first, then names that start with the query, then the rest', async () => {
    const { services } = t;
    // Added so that the weaker matches are newer and, by relevance alone, would come first.
    const exact = await addBodega(services, { name: 'Search Deli X', address: '1 Plain St' });
    await addBodega(services, { name: 'Search Deli X 2', address: '2 Plain St' });
    await addBodega(services, { name: 'Best Search Deli X', address: 'Search Deli X Corner, Deli Row' });
    await addCat(services, exact, { name: 'Pepper Jack Junior', description: 'pepper jack' });
    await addCat(services, exact, { name: 'Pepper-Jack', description: '' });
    await addCat(services, exact, { name: 'Pepper Jack', description: 'pepper jack pepper jack' });
    for (const q of ['Search Deli X', 'search  deli x', 'SEARCH-DELI-X']) {
      const res = await call(t.app, 'GET', `/api/search/bodegas?q=${encodeURIComponent(q)}`);
      expect(names(res.body), q).toEqual(['Search Deli X', 'Search Deli X 2', 'Best Search Deli X']);
    }
    const cats = await call(t.app, 'GET', '/api/search/cats?q=pepper%20jack');
    // Two names equal the query (in relevance order between them), then the prefix match.
    const found = names(cats.body);
    expect(found.slice(0, 2).sort()).toEqual(['Pepper Jack', 'Pepper-Jack']);
    expect(found[2]).toBe('Pepper Jack Junior');
  });

  it('puts the shorter of equally relevant names first, for a misspelt or reordered query', async () => {
    const { services } = t;
    const shop = await addBodega(services, { name: 'Sunny Deli & Grocery', address: '3 Plain St' });
    await addBodega(services, { name: 'Sunny Deli', address: '4 Plain St' });
    await addCat(services, shop, { name: 'Empanada', description: 'Empanada naps' });
    await addCat(services, shop, { name: 'Empanada the Elder', description: 'Empanada naps' });
    const cats = await call(t.app, 'GET', '/api/search/cats?q=empanda');
    expect(names(cats.body)).toEqual(['Empanada', 'Empanada the Elder']);
    const shops = await call(t.app, 'GET', '/api/search/bodegas?q=deli%20sunny');
    expect(names(shops.body).slice(0, 2)).toEqual(['Sunny Deli', 'Sunny Deli & Grocery']);
  });
});
