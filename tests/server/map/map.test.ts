import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomSource } from '../../../bench/city-data.ts';
import { projections } from '../../../server/domains.ts';
import { mapProjection } from '../../../server/map/projection.ts';
import { replay } from '../../../server/events/replay.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../server/db/schema.ts';
import { nextId } from '../../../server/events/store.ts';
import { streamIds } from '../../../server/events/types.ts';
import { setRole } from '../../../server/moderation/roles.ts';
import { person, request } from '../../helpers/world.ts';
import { addBodega, addCat, catFields, deleteBodega, deleteCat, updateBodega } from '../search/fixture.ts';

type Item = { id: number; name: string; latitude: number | null; longitude: number | null };
type CatItem = Item & { breed: string; is_friendly: boolean };
type Box = { west: number; south: number; east: number; north: number };
type Cluster = { lat: number; lng: number; count: number; id?: number; name?: string };

const BREEDS = ['tabby', 'calico', 'tuxedo'];
const WORDS = ['whiskers', 'pepper', 'mango', 'biscuit'];
/** New York City, roughly: Staten Island to Queens, Coney Island to the Bronx. */
const CITY = { west: -74.26, south: 40.49, east: -73.7, north: 40.92 };
const MANHATTAN_TO_BROOKLYN = { west: -74.02, south: 40.66, east: -73.93, north: 40.75 };

const inBox = (b: Box) => (i: Item) =>
  i.latitude !== null &&
  i.longitude !== null &&
  i.longitude >= b.west &&
  i.longitude <= b.east &&
  i.latitude >= b.south &&
  i.latitude <= b.north;

function query(box: Box, zoom: number, extra = ''): string {
  return `/api/map?west=${box.west}&south=${box.south}&east=${box.east}&north=${box.north}&zoom=${zoom}${extra}`;
}

describe('GET /api/map', () => {
  let t: TestApp;
  const rnd = randomSource(19).next;
  const map = async (box: Box, zoom: number, extra = '') => {
    const res = await call(t.app, 'GET', query(box, zoom, extra));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { zoom: number; total: number; clusters: Cluster[] };
  };
  const items = async (type: 'cats' | 'bodegas'): Promise<CatItem[]> => {
    const { rows } = await t.services.database.db
      .selectFrom(type)
      .selectAll()
      .execute()
      .then((rows) => ({ rows: rows as unknown as CatItem[] }));
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  };

  /** Every answer's invariants against a brute-force count of the matching items in the box. */
  function expectAnswer(answer: { total: number; clusters: Cluster[] }, matching: Item[]) {
    const byId = new Map(matching.map((i) => [i.id, i]));
    expect(answer.total).toBe(matching.length);
    expect(answer.clusters.reduce((sum, c) => sum + c.count, 0)).toBe(matching.length);
    expect(answer.clusters.length).toBeLessThanOrEqual(500);
    for (const c of answer.clusters) {
      if (c.count !== 1) {
        expect(c.id).toBeUndefined();
        continue;
      }
      const item = byId.get(c.id!);
      expect(item, `cluster of one names item ${c.id} in the box`).toBeDefined();
      expect(c.name).toBe(item!.name);
      expect(c.lat).toBeCloseTo(item!.latitude!, 6);
      expect(c.lng).toBeCloseTo(item!.longitude!, 6);
    }
  }

  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    const s = t.services;
    const bodegas: { id: number; cats: number[] }[] = [];
    const spot = () => ({
      latitude: CITY.south + rnd() * (CITY.north - CITY.south),
      longitude: CITY.west + rnd() * (CITY.east - CITY.west),
    });
    const shared = spot();
    for (let i = 0; i < 70; i++) {
      const place = i < 4 ? shared : i < 64 ? spot() : { latitude: null, longitude: null };
      const id = await addBodega(s, { name: `Shop ${i}`, address: `${i} Main St`, ...place });
      bodegas.push({ id, cats: [] });
    }
    for (let i = 0; i < 260; i++) {
      const bodega = bodegas[Math.floor(rnd() * bodegas.length)]!;
      const name = `Cat ${i} ${WORDS[i % WORDS.length]}`;
      const breed = BREEDS[Math.floor(rnd() * BREEDS.length)]!;
      bodega.cats.push(await addCat(s, bodega.id, { name, breed, is_friendly: rnd() < 0.6 }));
    }
    // Deletions, moves (into, within and off the map) and a deleted shop after its cats.
    for (const bodega of bodegas.slice(0, 30)) {
      const cat = bodega.cats.pop();
      if (cat !== undefined) await deleteCat(s, cat, bodega.id);
    }
    const at = (i: number) => bodegas[i]!;
    const [moved, unmapped, found, closed] = [at(10), at(11), at(66), at(20)];
    await updateBodega(s, moved.id, { name: 'Moved', address: '1 New St', ...spot() });
    await updateBodega(s, unmapped.id, { name: 'Unmapped', address: '2 New St' });
    await updateBodega(s, found.id, { name: 'Found', address: '3 New St', ...spot() });
    for (const cat of closed.cats) await deleteCat(s, cat, closed.id);
    await deleteBodega(s, closed.id);
  }, 120_000);
  afterAll(async () => t.close());

  it('counts exactly what a brute-force count finds, for random boxes at every zoom', async () => {
    const cats = await items('cats');
    const bodegas = await items('bodegas');
    expect(cats.filter((c) => c.latitude === null).length).toBeGreaterThan(0);
    for (let i = 0; i < 60; i++) {
      const width = 0.0005 + rnd() ** 2 * 0.8;
      const height = 0.0005 + rnd() ** 2 * 0.6;
      const west = CITY.west - 0.1 + rnd() * (CITY.east - CITY.west);
      const south = CITY.south - 0.1 + rnd() * (CITY.north - CITY.south);
      const box = { west, south, east: west + width, north: south + height };
      const zoom = Math.floor(rnd() * 21);
      const type = i % 3 === 0 ? 'bodegas' : 'cats';
      const answer = await map(box, zoom, `&type=${type}`);
      expect(answer.zoom).toBe(zoom);
      expectAnswer(answer, (type === 'cats' ? cats : bodegas).filter(inBox(box)));
    }
  });

  it('answers the whole city, across boroughs, and empty boxes', async () => {
    const cats = await items('cats');
    for (const [box, zoom] of [
      [CITY, 10],
      [CITY, 3],
      [CITY, 0],
      [{ west: -180, south: -90, east: 180, north: 90 }, 2],
      [MANHATTAN_TO_BROOKLYN, 13],
      [MANHATTAN_TO_BROOKLYN, 16],
      [MANHATTAN_TO_BROOKLYN, 20],
    ] as const) {
      const answer = await map(box, zoom);
      expectAnswer(answer, cats.filter(inBox(box)));
      expect(answer.clusters.length).toBeLessThan(answer.total);
    }
    const ocean = { west: -73.5, south: 40.2, east: -73.4, north: 40.3 };
    expect(await map(ocean, 12)).toEqual({ zoom: 12, total: 0, clusters: [] });
  });

  it('groups the items of a cell and places the cluster at their mean', async () => {
    const cats = (await items('cats')).filter(inBox(CITY));
    const answer = await map(CITY, 10);
    const size = 90 / 2 ** 10;
    const cellOf = (lat: number, lng: number) => `${Math.floor(lng / size)} ${Math.floor(lat / size)}`;
    const expected = new Map<string, CatItem[]>();
    for (const c of cats) {
      const key = cellOf(c.latitude!, c.longitude!);
      expected.set(key, [...(expected.get(key) ?? []), c]);
    }
    expect(answer.clusters.length).toBe(expected.size);
    for (const cluster of answer.clusters) {
      const members = expected.get(cellOf(cluster.lat, cluster.lng))!;
      expect(cluster.count).toBe(members.length);
      const mean = (f: (c: CatItem) => number) => members.reduce((s, c) => s + f(c), 0) / members.length;
      expect(cluster.lat).toBeCloseTo(
        mean((c) => c.latitude!),
        6,
      );
      expect(cluster.lng).toBeCloseTo(
        mean((c) => c.longitude!),
        6,
      );
    }
  });

  it('makes every distinct location its own cluster from zoom 17', async () => {
    const cats = (await items('cats')).filter(inBox(CITY));
    const answer = await map(CITY, 17);
    const at = new Map<string, number>();
    for (const c of cats)
      at.set(`${c.latitude} ${c.longitude}`, (at.get(`${c.latitude} ${c.longitude}`) ?? 0) + 1);
    expect(answer.clusters.length).toBe(at.size);
    for (const c of answer.clusters) expect(c.count).toBe(at.get(`${c.lat} ${c.lng}`));
    // The shops sharing one corner make one cluster of all their cats.
    expect(Math.max(...answer.clusters.map((c) => c.count))).toBeGreaterThan(4);
  });

  it('applies every filter of the type and the text', async () => {
    const cats = (await items('cats')).filter(inBox(CITY));
    const tabby = await map(CITY, 12, '&breed=Tabby');
    expectAnswer(
      tabby,
      cats.filter((c) => c.breed === 'tabby'),
    );
    const friendlyTabby = await map(MANHATTAN_TO_BROOKLYN, 15, '&breed=tabby&is_friendly=true');
    expectAnswer(
      friendlyTabby,
      cats.filter(inBox(MANHATTAN_TO_BROOKLYN)).filter((c) => c.breed === 'tabby' && c.is_friendly),
    );
    const text = await map(CITY, 18, '&q=pepper');
    expectAnswer(
      text,
      cats.filter((c) => c.name.includes('pepper')),
    );
    const bodegas = (await items('bodegas')).filter(inBox(CITY));
    expectAnswer(
      await map(CITY, 11, '&type=bodegas&q=shop'),
      bodegas.filter((b) => b.name.startsWith('Shop')),
    );
  });

  it('refuses a bad or missing box or zoom with 400 in the error shape', async () => {
    const good = 'west=-74.1&south=40.6&east=-73.9&north=40.8&zoom=12';
    for (const bad of [
      'west=-73.9&south=40.6&east=-74.1&north=40.8&zoom=12',
      'west=-74.1&south=40.8&east=-73.9&north=40.6&zoom=12',
      'west=-74.1&south=40.6&east=-74.1&north=40.8&zoom=12',
      'west=-74.1&south=40.6&east=-73.9&zoom=12',
      'west=-74.1&south=40.6&east=-73.9&north=40.8',
      `${good.replace('zoom=12', 'zoom=21')}`,
      `${good.replace('zoom=12', 'zoom=1.5')}`,
      `${good.replace('north=40.8', 'north=91')}`,
      `${good.replace('west=-74.1', 'west=abc')}`,
      `${good}&type=dogs`,
      `${good}&min_cats=2`,
      `${good}&type=bodegas&breed=tabby`,
      `${good}&min_rating=4&max_rating=2`,
    ]) {
      const res = await call(t.app, 'GET', `/api/map?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body).toEqual({
        error: expect.any(String),
        code: expect.any(String),
        details: expect.anything(),
      });
    }
  });

  it('keeps exact cells under concurrent transactions that each append several shops and cats', async () => {
    const s = t.services;
    const shop = async (trx: Kysely<DB>, n: number, place: { latitude: number; longitude: number }) => {
      const id = await nextId(trx, 'bodega_ids');
      const fields = { name: `Rush ${n}`, address: `${n} Rush St`, description: '', phone: '', hours: '' };
      await s.store.append(trx, streamIds.bodega(id), 0, [
        { type: 'BodegaAdded', data: { bodega_id: id, created_by: null, ...fields, ...place } },
      ]);
      for (let c = 0; c < 2; c++) {
        const catId = await nextId(trx, 'cat_ids');
        await s.store.append(trx, streamIds.cat(catId), 0, [
          {
            type: 'CatAdded',
            data: { cat_id: catId, bodega_id: id, created_by: null, ...catFields({ name: `Rush cat ${n}` }) },
          },
        ]);
      }
    };
    // Two corners far apart, taken in opposite orders by alternate transactions.
    const corners = [
      { latitude: 40.6001, longitude: -74.0001 },
      { latitude: 40.8501, longitude: -73.8001 },
    ];
    await Promise.all(
      Array.from({ length: 8 }, (_, w) =>
        s.database.db.transaction().execute(async (trx) => {
          for (let k = 0; k < 4; k++) await shop(trx, w * 10 + k, corners[(w + k) % 2]!);
        }),
      ),
    );
    const cats = await items('cats');
    expectAnswer(await map(CITY, 10), cats.filter(inBox(CITY)));
    expectAnswer(await map(CITY, 10, '&type=bodegas'), (await items('bodegas')).filter(inBox(CITY)));
  });

  it('keeps the cells of a shop that moves and hides while its cats come, go and hide in other requests', async () => {
    const [creator, moderator] = await Promise.all([person(t, 'corner'), person(t, 'warden')]);
    await setRole(t.services, moderator.username, 'moderator');
    const shop = { name: 'Busy corner', address: '5 Busy St', latitude: 40.7, longitude: -73.95 };
    const created = await request(t, 'POST', '/api/bodegas', { as: creator, body: shop });
    expect(created.status).toBe(201);
    const id = (created.body as { bodega: { id: number } }).bodega.id;
    const addCat = async (name: string) => {
      const res = await request(t, 'POST', '/api/cats', {
        as: creator,
        body: { name, bodega_name: shop.name, address: shop.address },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return (res.body as { cat: { id: number } }).cat.id;
    };
    const cats: number[] = [];
    for (let i = 0; i < 6; i++) cats.push(await addCat(`Busy cat ${i}`));
    const expectOk = async (reply: Promise<{ status: number; body: unknown }>) => {
      const res = await reply;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    const moveTo = (latitude: number, longitude: number) =>
      expectOk(
        request(t, 'PUT', `/api/bodegas/${id}`, { as: creator, body: { ...shop, latitude, longitude } }),
      );
    const decide = (type: 'cat' | 'bodega', targetId: number, action: 'hide' | 'restore') =>
      expectOk(
        request(t, 'POST', `/api/moderation/${type}/${targetId}`, { as: moderator, body: { action } }),
      );
    await Promise.all([
      moveTo(40.75, -73.9),
      ...Array.from({ length: 6 }, (_, i) => addCat(`Late cat ${i}`)),
      expectOk(request(t, 'DELETE', `/api/cats/${cats[0]}`, { as: creator })),
      decide('cat', cats[1]!, 'hide'),
      decide('cat', cats[2]!, 'hide'),
      decide('bodega', id, 'hide'),
    ]);
    await Promise.all([
      decide('cat', cats[2]!, 'restore'),
      expectOk(request(t, 'DELETE', `/api/cats/${cats[1]}`, { as: creator })),
      decide('bodega', id, 'restore'),
      moveTo(40.76, -73.91),
    ]);
    const visible = (await items('cats')).filter((c) => !(c as unknown as { hidden: boolean }).hidden);
    expect(visible.filter((c) => c.name.startsWith('Late cat'))).toHaveLength(6);
    expectAnswer(await map(CITY, 16), visible.filter(inBox(CITY)));
    const verify = await replay(t.services.database, projections, { verify: true });
    expect(verify.differences.filter((d) => !d.same)).toEqual([]);
  });

  it('counts nothing of a savepoint rolled back inside a transaction that commits', async () => {
    const s = t.services;
    const before = await map(CITY, 10);
    await s.database.db.transaction().execute(async (trx) => {
      const id = await nextId(trx, 'bodega_ids');
      const fields = { name: 'Kept', address: '1 Kept St', description: '', phone: '', hours: '' };
      await s.store.append(trx, streamIds.bodega(id), 0, [
        {
          type: 'BodegaAdded',
          data: { bodega_id: id, created_by: null, ...fields, latitude: 40.7, longitude: -74 },
        },
      ]);
      await sql`savepoint dropped`.execute(trx);
      const catId = await nextId(trx, 'cat_ids');
      await s.store.append(trx, streamIds.cat(catId), 0, [
        {
          type: 'CatAdded',
          data: { cat_id: catId, bodega_id: id, created_by: null, ...catFields({ name: 'Gone' }) },
        },
      ]);
      await sql`rollback to savepoint dropped`.execute(trx);
    });
    const after = await map(CITY, 10);
    expect(after.total).toBe(before.total);
    expect((await map(CITY, 10, '&type=bodegas')).total).toBe(
      (await items('bodegas')).filter(inBox(CITY)).length,
    );
  });

  it('fires its commit trigger on exactly the events the projection handles', async () => {
    const { rows } = await sql<{ definition: string }>`
      select pg_get_triggerdef(oid) as definition from pg_trigger where tgname = 'map_at_commit'`.execute(
      t.services.database.db,
    );
    const fired = [...rows[0]!.definition.matchAll(/'(\w+)'::text/g)].map((m) => m[1]);
    expect(fired.sort()).toEqual([...mapProjection.handles].sort());
  });

  it('rebuilds the same cells by replay', async () => {
    const boxes = [
      [CITY, 10],
      [CITY, 13],
      [MANHATTAN_TO_BROOKLYN, 16],
    ] as const;
    const before = await Promise.all(boxes.map(([box, zoom]) => map(box, zoom)));
    const verify = await replay(t.services.database, projections, { verify: true });
    expect(verify.differences.filter((d) => !d.same)).toEqual([]);
    await replay(t.services.database, projections);
    const after = await Promise.all(boxes.map(([box, zoom]) => map(box, zoom)));
    expect(after).toEqual(before);
  });
});
