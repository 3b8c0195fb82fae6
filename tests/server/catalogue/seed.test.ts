import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCity, seedDemoData, seedIfEmpty } from '../../../server/catalogue/demo-city.ts';
import { projections } from '../../../server/domains.ts';
import { replay } from '../../../server/events/replay.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { send } from './signed-in.ts';

/** The borough of a New York ZIP code. */
function boroughOf(address: string): string {
  const zip = Number(/NY (\d{5})$/.exec(address)?.[1]);
  if (zip >= 10001 && zip <= 10282) return 'Manhattan';
  if (zip >= 10301 && zip <= 10314) return 'Staten Island';
  if (zip >= 10451 && zip <= 10475) return 'Bronx';
  if (zip >= 11201 && zip <= 11256) return 'Brooklyn';
  if (zip >= 11004 && zip <= 11697) return 'Queens';
  return 'elsewhere';
}

describe('the demo city', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ worker: false });
  });
  afterAll(async () => t.close());

  it('is seeded into an empty database only', async () => {
    expect(await seedIfEmpty(t.services)).toEqual({ bodegas: 65, cats: 150 });
    expect(await seedIfEmpty(t.services)).toBeNull();
    expect(await seedDemoData(t.services)).toEqual({ bodegas: 0, cats: 0 });
    const { db } = t.services.database;
    expect(await db.selectFrom('cats').select('id').execute()).toHaveLength(150);
  });

  it('spreads at least 60 bodegas over all five boroughs, inside the city, each with cats', async () => {
    const bodegas = await t.services.database.db.selectFrom('bodegas').selectAll().execute();
    expect(bodegas.length).toBeGreaterThanOrEqual(60);
    const boroughs = new Map<string, number>();
    for (const b of bodegas)
      boroughs.set(boroughOf(b.address), (boroughs.get(boroughOf(b.address)) ?? 0) + 1);
    expect([...boroughs.keys()].sort()).toEqual([
      'Bronx',
      'Brooklyn',
      'Manhattan',
      'Queens',
      'Staten Island',
    ]);
    for (const b of bodegas) {
      expect(b.latitude).toBeGreaterThan(40.49);
      expect(b.latitude).toBeLessThan(40.92);
      expect(b.longitude).toBeGreaterThan(-74.26);
      expect(b.longitude).toBeLessThan(-73.7);
      expect(b.address).toMatch(/^\d+ .+, .+, NY \d{5}$/);
      expect(b.cat_count).toBeGreaterThanOrEqual(1);
      expect(b.created_by).toBeNull();
    }
    expect(bodegas.reduce((n, b) => n + Number(b.cat_count), 0)).toBe(150);
    expect(bodegas.filter((b) => b.is_verified).length).toBeGreaterThan(5);
  });

  it('has cats of many kinds', async () => {
    const cats = await t.services.database.db.selectFrom('cats').selectAll().execute();
    const distinct = (key: 'breed' | 'personality' | 'color' | 'age' | 'sex') =>
      new Set(cats.map((c) => c[key])).size;
    expect(distinct('breed')).toBeGreaterThanOrEqual(10);
    expect(distinct('personality')).toBeGreaterThanOrEqual(10);
    expect(distinct('color')).toBeGreaterThanOrEqual(8);
    expect(distinct('age')).toBeGreaterThanOrEqual(10);
    expect(new Set(cats.map((c) => c.sex))).toEqual(new Set(['Male', 'Female', 'Unknown', '']));
    expect(new Set(cats.map((c) => c.is_friendly))).toEqual(new Set([true, false]));
    expect(new Set(cats.map((c) => c.name)).size).toBe(150);
    expect(cats.every((c) => c.description.startsWith(c.name))).toBe(true);
  });

  it('is the same city every time', () => {
    expect(demoCity()).toEqual(demoCity());
    expect(demoCity(1)).not.toEqual(demoCity());
  });

  it('is served by the API like anything users add, and nobody may edit it', async () => {
    const [row] = await t.services.database.db
      .selectFrom('cats')
      .select('id')
      .orderBy('id')
      .limit(1)
      .execute();
    const res = await send(t, 'GET', `/api/cats/${row!.id}`);
    expect(res.status).toBe(200);
    expect(res.body.cat).toMatchObject({ created_by: null, creator_username: null, version: 1 });
  });

  it('is rebuilt exactly from its events', async () => {
    const result = await replay(t.services.database, projections, { verify: true });
    expect(result.differences.filter((d) => !d.same)).toEqual([]);
  });
});
