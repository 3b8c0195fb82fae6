import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { CITY_HALL, addBodega, addCat, buildWorld, kmBetween, type World } from './fixture.ts';

const AT_CITY_HALL = `lat=${CITY_HALL.lat}&lng=${CITY_HALL.lng}`;

describe('nearby search', () => {
  let t: TestApp;
  let world: World;
  const nearby = (query: string) => call(t.app, 'GET', `/api/search/nearby?${query}`);

  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    world = await buildWorld(t.services);
  });
  afterAll(async () => t.close());

  it('finds cats within the radius, nearest first, with the distance in km', async () => {
    const res = await nearby(`${AT_CITY_HALL}&radius=5`);
    expect(res.status).toBe(200);
    const found = res.body.cats.map((c: { name: string; distance: number }) => [c.name, c.distance]);
    // Sunny Deli sits on the centre; ties at one address come in id order.
    expect(found).toEqual([
      ['Whiskers the Tabby', 0],
      ['Ginger', 0],
      ['Milo', expect.any(Number)],
      ['Mittens', expect.any(Number)],
      ["Robert'); DROP TABLE cats;--", expect.any(Number)],
    ]);
    const corner = kmBetween(CITY_HALL, { lat: 40.7215, lng: -74.0005 });
    const golden = kmBetween(CITY_HALL, { lat: 40.717, lng: -73.957 });
    expect(found[2][1]).toBeCloseTo(corner, 2);
    expect(found[3][1]).toBeCloseTo(golden, 2);
    expect(Number.isInteger(found[3][1] * 100)).toBe(true);
    expect(res.body.pagination).toEqual({ page: 1, per_page: 20, total: 5, pages: 1, total_exact: true });
  });

  it('defaults to a 10 km radius and reaches up to 50 km', async () => {
    const bronx = kmBetween(CITY_HALL, { lat: 40.82, lng: -73.925 });
    expect(bronx).toBeGreaterThan(10);
    const byDefault = await nearby(AT_CITY_HALL);
    expect(byDefault.body.cats.map((c: { name: string }) => c.name)).not.toContain('Shadow');
    const wide = await nearby(`${AT_CITY_HALL}&radius=50`);
    const last = wide.body.cats.at(-1);
    expect(last.name).toBe('Shadow');
    expect(last.distance).toBeCloseTo(bronx, 2);
    const justShort = await nearby(`${AT_CITY_HALL}&radius=${(bronx - 0.05).toFixed(2)}`);
    expect(justShort.body.pagination.total).toBe(5);
    const justPast = await nearby(`${AT_CITY_HALL}&radius=${(bronx + 0.05).toFixed(2)}`);
    expect(justPast.body.pagination.total).toBe(6);
  });

  it('leaves out entries without coordinates', async () => {
    const res = await nearby(`${AT_CITY_HALL}&radius=50&per_page=100`);
    expect(res.body.cats.map((c: { id: number }) => c.id)).not.toContain(world.cats.luna);
    expect(res.body.pagination.total).toBe(6);
    const shops = await nearby(`${AT_CITY_HALL}&radius=50&type=bodegas`);
    expect(shops.body.bodegas.map((b: { name: string }) => b.name)).toEqual([
      'Sunny Deli',
      'Whiskers Corner',
      'Golden Grocery',
      'Concourse Market',
    ]);
  });

  it('applies every cat filter and the text', async () => {
    const names = async (query: string) =>
      (await nearby(`${AT_CITY_HALL}&radius=50&${query}`)).body.cats.map((c: { name: string }) => c.name);
    expect(await names('breed=tabby')).toEqual(['Whiskers the Tabby', 'Mittens', 'Shadow']);
    expect(await names('personality=FRIENDLY')).toEqual([
      'Whiskers the Tabby',
      "Robert'); DROP TABLE cats;--",
      'Shadow',
    ]);
    expect(await names('is_friendly=false')).toEqual(['Mittens']);
    expect(await names('min_rating=4&max_rating=4.5')).toEqual(['Whiskers the Tabby', 'Ginger']);
    expect(await names('breed=tabby&is_friendly=true&min_rating=5')).toEqual(['Shadow']);
    expect(await names('q=wiskers')).toEqual(['Whiskers the Tabby', 'Ginger', 'Milo']);
    expect(await names('q=tabby&max_rating=3')).toEqual(['Mittens']);
  });

  it('applies every bodega filter and the text', async () => {
    const names = async (query: string) =>
      (await nearby(`${AT_CITY_HALL}&radius=50&type=bodegas&${query}`)).body.bodegas.map(
        (b: { name: string }) => b.name,
      );
    expect(await names('min_cats=2')).toEqual(['Sunny Deli', 'Golden Grocery']);
    expect(await names('max_cats=1')).toEqual(['Whiskers Corner', 'Concourse Market']);
    expect(await names('verified_only=true')).toEqual(['Sunny Deli', 'Golden Grocery']);
    expect(await names('min_rating=3')).toEqual(['Sunny Deli', 'Whiskers Corner', 'Concourse Market']);
    expect(await names('verified_only=true&max_rating=4')).toEqual(['Golden Grocery']);
    expect(await names('q=grocery')).toEqual(['Golden Grocery']);
    const first = (await nearby(`${AT_CITY_HALL}&radius=50&type=bodegas`)).body.bodegas[0];
    expect(first).toMatchObject({ name: 'Sunny Deli', distance: 0, cat_count: 2, is_verified: true });
  });

  it('pages nearest first without repeats, ties included', async () => {
    // A crowded shop: many cats at one address, so ties cross page boundaries.
    const far = await addBodega(t.services, {
      name: 'Clowder Deli',
      address: '1 Crowded Pl, New York, NY',
      latitude: 40.7306,
      longitude: -73.9866,
    });
    const ids: number[] = [];
    for (let i = 0; i < 70; i++) ids.push(await addCat(t.services, far, { name: `Clowder ${i}` }));
    const seen: { id: number; distance: number }[] = [];
    for (let page = 1; page <= 5; page++) {
      const res = await nearby(`${AT_CITY_HALL}&radius=10&per_page=16&page=${page}`);
      expect(res.body.pagination).toEqual({ page, per_page: 16, total: 75, pages: 5, total_exact: true });
      seen.push(...res.body.cats);
    }
    expect(seen).toHaveLength(75);
    expect(new Set(seen.map((c) => c.id)).size).toBe(75);
    const clowder = seen.filter((c) => ids.includes(c.id)).map((c) => c.id);
    expect(clowder).toEqual([...ids].sort((a, b) => a - b));
    const distances = seen.map((c) => c.distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    const past = await nearby(`${AT_CITY_HALL}&radius=10&per_page=16&page=6`);
    expect(past.body.cats).toEqual([]);
    expect(past.body.pagination.total).toBe(75);
  });

  it('walks a crowded circle nearest first, page by page, as one sorted list would', async () => {
    // Sixty shops on a line south of St. George, about 50 m apart: far more than one page.
    const origin = { lat: 40.6437, lng: -74.0736 };
    for (let i = 0; i < 60; i++) {
      const shop = await addBodega(t.services, {
        name: `Line Deli ${i}`,
        address: `${i} Bay St, Staten Island, NY`,
        latitude: origin.lat - (59 - i) * 0.00045,
        longitude: origin.lng,
      });
      await addCat(t.services, shop, { name: `Liner ${i}`, breed: i % 2 ? 'Bombay' : 'Sphynx' });
    }
    const at = `lat=${origin.lat}&lng=${origin.lng}&radius=5`;
    const whole = (await nearby(`${at}&per_page=100`)).body;
    expect(whole.pagination.total).toBe(60);
    expect(whole.cats[0].name).toBe('Liner 59');
    const paged = [];
    for (let page = 1; page <= 9; page++)
      paged.push(...(await nearby(`${at}&per_page=7&page=${page}`)).body.cats);
    expect(paged.map((c) => c.id)).toEqual(whole.cats.map((c: { id: number }) => c.id));
    const bombay = await nearby(`${at}&per_page=4&page=2&breed=bombay`);
    expect(bombay.body.pagination.total).toBe(30);
    expect(bombay.body.cats.map((c: { name: string }) => c.name)).toEqual([
      'Liner 51',
      'Liner 49',
      'Liner 47',
      'Liner 45',
    ]);
  });

  it('rejects bad coordinates, radius and type naming the field', async () => {
    const bad: [string, string][] = [
      ['lng=-74', 'lat'],
      ['lat=40.7', 'lng'],
      ['lat=91&lng=0', 'lat'],
      ['lat=-90.5&lng=0', 'lat'],
      ['lat=0&lng=181', 'lng'],
      ['lat=abc&lng=0', 'lat'],
      ['lat=0&lng=0&radius=0', 'radius'],
      ['lat=0&lng=0&radius=-2', 'radius'],
      ['lat=0&lng=0&radius=50.5', 'radius'],
      ['lat=0&lng=0&type=shops', 'type'],
      ['lat=0&lng=0&min_rating=9', 'min_rating'],
      ['lat=0&lng=0&min_rating=3&max_rating=2', 'min_rating'],
      ['lat=0&lng=0&type=cats&min_cats=2', 'min_cats'],
      ['lat=0&lng=0&type=bodegas&breed=Tabby', 'breed'],
    ];
    for (const [query, field] of bad) {
      const res = await nearby(query);
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.details ?? {}), query).toContain(field);
    }
    expect((await nearby('lat=40.7&lng=-74&radius=50')).status).toBe(200);
  });
});
