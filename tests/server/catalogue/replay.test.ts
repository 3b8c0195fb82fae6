// The event log alone rebuilds the catalogue: after a random mix of creates, edits and deletes
// through HTTP (several at a time), replay --verify finds every read table identical.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { projections } from '../../../server/domains.ts';
import { replay } from '../../../server/events/replay.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { send, signUp, type Caller } from './signed-in.ts';

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const SHOPS = [
  ['Sunny Deli', '1 Grand St'],
  ["Joe's Bodega", '12 Main St'],
  ['La Estrella', '300 Nostrand Ave'],
  ['Lucky Star', '45 Avenue A'],
  ['Green Apple Grocery', '9 Steinway St'],
] as const;

describe('replaying the catalogue', () => {
  let t: TestApp;
  let users: Caller[];
  const random = prng(7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const respell = (text: string) =>
    random() < 0.5 ? text : `  ${text.toUpperCase().replace(/ /g, random() < 0.5 ? '  ' : ' ')} `;
  const coordinates = () =>
    random() < 0.5 ? {} : { latitude: 40.5 + random() * 0.4, longitude: -74.2 + random() * 0.5 };

  beforeAll(async () => {
    t = await createTestApp();
    users = [await signUp(t, 'ana'), await signUp(t, 'ben'), await signUp(t, 'cy')];
  });
  afterAll(async () => t.close());

  async function ids(table: 'cats' | 'bodegas'): Promise<number[]> {
    const rows = await t.services.database.db.selectFrom(table).select('id').execute();
    return rows.map((r) => Number(r.id));
  }

  /** One random request; returns its status. */
  async function randomRequest(cats: number[], bodegas: number[]): Promise<number> {
    const caller = pick(users);
    const roll = random();
    if (roll < 0.3 || cats.length === 0) {
      const [name, address] = pick(SHOPS);
      const body = {
        name: `Cat ${Math.floor(random() * 1000)}`,
        bodega_name: respell(name),
        address,
        ...coordinates(),
      };
      return (await send(t, 'POST', '/api/cats', { caller, body })).status;
    }
    if (roll < 0.4) {
      const body = {
        name: `Shop ${Math.floor(random() * 1e6)}`,
        address: `${Math.floor(random() * 500)} Broadway`,
      };
      return (await send(t, 'POST', '/api/bodegas', { caller, body: { ...body, ...coordinates() } })).status;
    }
    if (roll < 0.6) {
      const body = { name: `Renamed ${Math.floor(random() * 100)}`, sex: pick(['Male', 'Female', '']) };
      return (await send(t, 'PUT', `/api/cats/${pick(cats)}`, { caller, body })).status;
    }
    if (roll < 0.7 && bodegas.length > 0) {
      const id = pick(bodegas);
      const current = await send(t, 'GET', `/api/bodegas/${id}`);
      if (current.status !== 200) return current.status;
      const { name, address } = current.body.bodega;
      const body = {
        name,
        address: random() < 0.5 ? address : `${address} Apt 2`,
        phone: `${random()}`.slice(0, 8),
      };
      return (await send(t, 'PUT', `/api/bodegas/${id}`, { caller, body: { ...body, ...coordinates() } }))
        .status;
    }
    if (roll < 0.8) return (await send(t, 'DELETE', `/api/cats/${pick(cats)}`, { caller })).status;
    if (roll < 0.86 && bodegas.length > 0)
      return (await send(t, 'DELETE', `/api/bodegas/${pick(bodegas)}`, { caller })).status;
    if (roll < 0.93) return (await send(t, 'POST', `/api/cats/${pick(cats)}/save`, { caller })).status;
    return (await send(t, 'GET', `/api/cats/${pick(cats)}`, { caller })).status;
  }

  it('rebuilds exactly the same tables after a random workload', async () => {
    const statuses = new Map<number, number>();
    for (let round = 0; round < 40; round++) {
      const [cats, bodegas] = [await ids('cats'), await ids('bodegas')];
      const batch = await Promise.all([1, 2, 3, 4].map(() => randomRequest(cats, bodegas)));
      for (const status of batch) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect([...statuses.keys()].every((s) => [200, 201, 403, 404, 409].includes(s))).toBe(true);
    expect(statuses.get(201)).toBeGreaterThan(20);

    const { rows } = await sql<{ id: number; cat_count: number; cats: number }>`
      select b.id, b.cat_count, (select count(*)::int from cats c where c.bodega_id = b.id) as cats
      from bodegas b`.execute(t.services.database.db);
    expect(rows.filter((r) => Number(r.cat_count) !== r.cats)).toEqual([]);
    const orphans = await sql<{ n: number }>`
      select count(*)::int as n from cats where bodega_id not in (select id from bodegas)`.execute(
      t.services.database.db,
    );
    expect(orphans.rows[0]!.n).toBe(0);

    const result = await replay(t.services.database, projections, { verify: true });
    expect(result.differences.filter((d) => !d.same)).toEqual([]);
    expect(result.differences.map((d) => d.table)).toEqual(expect.arrayContaining(['cats', 'bodegas']));
  });

  it('notices a read table that no longer matches the log', async () => {
    await sql`update bodegas set cat_count = cat_count + 1 where id = (select min(id) from bodegas)`.execute(
      t.services.database.db,
    );
    const result = await replay(t.services.database, projections, { verify: true });
    expect(result.differences.filter((d) => !d.same).map((d) => d.table)).toEqual(['bodegas']);
  });
});
