// Statements marked to reuse their plan are prepared once per session on Postgres, give the same
// rows as unmarked ones, and survive a change of their table's columns; embedded storage runs them
// as plain statements.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { reusePlan } from '../../../server/db/plans.ts';
import { createTestDatabase, storageMode, type TestDatabase } from '../../helpers/storage.ts';

describe('statements that reuse their plan', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    await sql`create table plan_probe (id int primary key, label text)`.execute(t.database.db);
    await sql`insert into plan_probe select n, 'label ' || n from generate_series(1, 50) n`.execute(
      t.database.db,
    );
  });
  afterAll(async () => t.drop());

  const probe = (from: number) =>
    reusePlan(
      sql<{
        id: number;
        label: string;
      }>`select id, label from plan_probe where id >= ${from} order by id limit 3`,
    );

  it('answers as the same statement unmarked, and is prepared once per session on Postgres', async () => {
    await t.database.db.connection().execute(async (session) => {
      for (const from of [1, 7, 20, 48]) {
        const marked = await probe(from).execute(session);
        const plain =
          await sql`select id, label from plan_probe where id >= ${from} order by id limit 3`.execute(
            session,
          );
        expect(marked.rows).toEqual(plain.rows);
      }
      if (storageMode() !== 'postgres') return;
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_prepared_statements where statement like '%from plan_probe%'`.execute(
        session,
      );
      expect(rows[0]!.n).toBe(1);
    });
  });

  it('keeps answering after a migration changes the columns it returns', async () => {
    await t.database.db.connection().execute(async (session) => {
      expect((await probe(1).execute(session)).rows[0]).toEqual({ id: 1, label: 'label 1' });
      await sql`alter table plan_probe alter column label type varchar(40)`.execute(session);
      expect((await probe(1).execute(session)).rows[0]).toEqual({ id: 1, label: 'label 1' });
      expect((await probe(2).execute(session)).rows[0]).toEqual({ id: 2, label: 'label 2' });
    });
  });
});
