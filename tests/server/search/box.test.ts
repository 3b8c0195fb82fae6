// "Search this area": the cat and bodega searches limited to a map box (west, south, east, north).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { addBodega, addCat } from './fixture.ts';

type Box = { west: number; south: number; east: number; north: number };
const boxQuery = (b: Box) => `west=${b.west}&south=${b.south}&east=${b.east}&north=${b.north}`;

/** Lower Manhattan; the other shops are in Brooklyn and the Bronx, one has no coordinates. */
const LOWER_MANHATTAN = { west: -74.02, south: 40.7, east: -73.97, north: 40.73 };

describe('search within a map box', () => {
  let t: TestApp;
  const ids = { inside: [] as number[], edge: 0, catsInside: [] as number[], catsOutside: [] as number[] };

  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    const s = t.services;
    const chinatown = await addBodega(
      s,
      { name: 'Canal Deli', address: '1 Canal St', latitude: 40.716, longitude: -73.999 },
      { verified: true },
    );
    const fidi = await addBodega(s, {
      name: 'Wall Street Grocery',
      address: '2 Wall St',
      latitude: 40.706,
      longitude: -74.009,
    });
    // Exactly on the box's west side: inside (the sides belong to the box, as on /api/map).
    ids.edge = await addBodega(s, {
      name: 'Edge Market',
      address: '3 West St',
      latitude: 40.71,
      longitude: LOWER_MANHATTAN.west,
    });
    ids.inside = [chinatown, fidi, ids.edge];
    const brooklyn = await addBodega(s, {
      name: 'Park Slope Deli',
      address: '4 7th Ave',
      latitude: 40.672,
      longitude: -73.977,
    });
    const bronx = await addBodega(s, {
      name: 'Fordham Market',
      address: '5 Fordham Rd',
      latitude: 40.861,
      longitude: -73.89,
    });
    await addBodega(s, { name: 'Nowhere Deli', address: 'unknown' });
    ids.catsInside.push(await addCat(s, chinatown, { name: 'Dumpling', breed: 'tabby' }));
    ids.catsInside.push(await addCat(s, fidi, { name: 'Ticker', breed: 'calico' }));
    ids.catsOutside.push(await addCat(s, brooklyn, { name: 'Brownstone', breed: 'tabby' }));
    ids.catsOutside.push(await addCat(s, bronx, { name: 'Fordy', breed: 'tabby' }));
  });
  afterAll(async () => t.close());

  it('lists only the bodegas inside the box, sides included, and counts them exactly', async () => {
    const res = await call(t.app, 'GET', `/api/search/bodegas?${boxQuery(LOWER_MANHATTAN)}`);
    expect(res.status).toBe(200);
    const found = (res.body.bodegas as { id: number }[]).map((b) => b.id);
    expect(found.sort()).toEqual([...ids.inside].sort());
    expect(res.body.pagination).toMatchObject({ total: 3, total_exact: true });
  });

  it('lists only the cats whose bodega is inside the box, with text and filters still applied', async () => {
    const all = await call(t.app, 'GET', `/api/search/cats?${boxQuery(LOWER_MANHATTAN)}`);
    expect(all.status).toBe(200);
    expect((all.body.cats as { id: number }[]).map((c) => c.id).sort()).toEqual([...ids.catsInside].sort());

    const tabbies = await call(t.app, 'GET', `/api/search/cats?breed=tabby&${boxQuery(LOWER_MANHATTAN)}`);
    expect((tabbies.body.cats as { name: string }[]).map((c) => c.name)).toEqual(['Dumpling']);

    const text = await call(t.app, 'GET', `/api/search/cats?q=ticker&${boxQuery(LOWER_MANHATTAN)}`);
    expect((text.body.cats as { name: string }[]).map((c) => c.name)).toEqual(['Ticker']);
    const elsewhere = await call(t.app, 'GET', `/api/search/cats?q=fordy&${boxQuery(LOWER_MANHATTAN)}`);
    expect(elsewhere.body.cats).toEqual([]);
    expect(elsewhere.body.pagination).toMatchObject({ total: 0 });
  });

  it('searches everywhere without a box, and finds nothing in an empty one', async () => {
    const everywhere = await call(t.app, 'GET', '/api/search/cats');
    expect(everywhere.body.pagination.total).toBe(4);
    const sea = { west: -73.5, south: 40.3, east: -73.4, north: 40.4 };
    const empty = await call(t.app, 'GET', `/api/search/bodegas?${boxQuery(sea)}`);
    expect(empty.status).toBe(200);
    expect(empty.body.bodegas).toEqual([]);
  });

  it('answers 400 in the error shape for a partial, inverted or out-of-range box', async () => {
    const bad = [
      'west=-74&south=40',
      'west=-74&south=40&east=-73.9',
      'north=40.8',
      'west=-73.9&south=40.7&east=-74&north=40.8',
      'west=-74&south=40.8&east=-73.9&north=40.7',
      'west=-74&south=40.7&east=-74&north=40.8',
      'west=-190&south=40.7&east=-73.9&north=40.8',
      'west=-74&south=40.7&east=-73.9&north=91',
      'west=abc&south=40.7&east=-73.9&north=40.8',
    ];
    for (const query of bad) {
      for (const type of ['cats', 'bodegas']) {
        const res = await call(t.app, 'GET', `/api/search/${type}?${query}`);
        expect(res.status, `${type}?${query}`).toBe(400);
        expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      }
    }
    const partial = await call(t.app, 'GET', '/api/search/cats?west=-74&south=40.7');
    expect(partial.body.details).toEqual({
      east: 'is required with the other sides of the box',
      north: 'is required with the other sides of the box',
    });
  });

  it('keeps answers for different boxes apart in the search cache', async () => {
    const brooklyn = { west: -74.0, south: 40.65, east: -73.95, north: 40.69 };
    const a = await call(t.app, 'GET', `/api/search/cats?${boxQuery(LOWER_MANHATTAN)}`);
    const b = await call(t.app, 'GET', `/api/search/cats?${boxQuery(brooklyn)}`);
    expect((b.body.cats as { name: string }[]).map((c) => c.name)).toEqual(['Brownstone']);
    expect(a.body.cats).not.toEqual(b.body.cats);
  });
});
