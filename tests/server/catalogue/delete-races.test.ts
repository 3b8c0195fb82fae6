// Reviews and saves racing the deletion of their cat or bodega. Whatever wins, the live tables keep
// nothing of a deleted item, and the log replays to exactly the same tables: a review that
// committed while the deletion waited for it must come before the deletion in the log too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { projections } from '../../../server/domains.ts';
import { replay } from '../../../server/events/replay.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';

const USERS = 8;

describe('reviews and saves racing a deletion', () => {
  let t: TestApp;
  const tokens: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ worker: false });
    const { db } = t.services.database;
    for (let i = 0; i < USERS; i++) {
      const id = 7100 + i;
      await db
        .insertInto('users')
        .values({ id, username: `racer${i}`, email: `racer${i}@example.test`, password_hash: 'x' })
        .execute();
      tokens.push(t.app.issueToken({ id, username: `racer${i}` }));
    }
  });
  afterAll(async () => t.close());

  const addCat = async (round: number, n: number) => {
    const body = {
      name: `Racer ${round}-${n}`,
      bodega_name: `Race Deli ${round}`,
      address: `${round} Race St`,
    };
    const res = await call(t.app, 'POST', '/api/cats', body, tokens[0]);
    expect(res.status).toBe(201);
    return { catId: res.body.cat.id as number, bodegaId: res.body.cat.bodega_id as number };
  };
  const review = (type: 'cat' | 'bodega', id: number, user: number) =>
    call(
      t.app,
      'POST',
      '/api/reviews',
      { [`${type}_id`]: id, rating: 1 + (user % 5), comment: 'hi' },
      tokens[user],
    );
  const save = (type: 'cats' | 'bodegas', id: number, user: number) =>
    call(t.app, 'POST', `/api/${type}/${id}/save`, undefined, tokens[user]);

  it('leaves nothing of a deleted item behind, and replays to the same tables', async () => {
    for (let round = 0; round < 4; round++) {
      const { catId, bodegaId } = await addCat(round, 1);
      const second = await addCat(round, 2);
      // The cat first: its reviews and saves race its deletion.
      const [deleted, ...writes] = await Promise.all([
        call(t.app, 'DELETE', `/api/cats/${catId}`, undefined, tokens[0]),
        ...Array.from({ length: USERS - 1 }, (_, i) => review('cat', catId, i + 1)),
        ...Array.from({ length: USERS - 1 }, (_, i) => save('cats', catId, i + 1)),
      ]);
      expect(deleted.status).toBe(200);
      for (const w of writes) expect([200, 201, 404]).toContain(w.status);

      // Then the bodega, with its other cat, while both are reviewed and saved.
      const [gone, ...more] = await Promise.all([
        call(t.app, 'DELETE', `/api/bodegas/${bodegaId}`, undefined, tokens[0]),
        ...Array.from({ length: USERS - 1 }, (_, i) => review('bodega', bodegaId, i + 1)),
        ...Array.from({ length: USERS - 1 }, (_, i) => review('cat', second.catId, i + 1)),
        ...Array.from({ length: USERS - 1 }, (_, i) => save('bodegas', bodegaId, i + 1)),
      ]);
      expect(gone.status).toBe(200);
      for (const w of more) expect([200, 201, 404]).toContain(w.status);
    }

    const { rows } = await sql<{ n: number }>`
      select (select count(*) from reviews r where not exists (
                select 1 from cats c where r.target_type = 'cat' and c.id = r.target_id
                union all select 1 from bodegas b where r.target_type = 'bodega' and b.id = r.target_id))
           + (select count(*) from saves s where not exists (
                select 1 from cats c where s.target_type = 'cat' and c.id = s.target_id
                union all select 1 from bodegas b where s.target_type = 'bodega' and b.id = s.target_id))
             as n`.execute(t.services.database.db);
    expect(Number(rows[0]!.n)).toBe(0);

    const verify = await replay(t.services.database, projections, { verify: true });
    expect(verify.differences.filter((d) => !d.same)).toEqual([]);
  });
});
