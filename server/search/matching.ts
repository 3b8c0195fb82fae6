// The rows of a read table that meet every search condition, and how many there are.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';

export type Searched = 'cats' | 'bodegas';

export function matching(db: Kysely<DB>, table: Searched, conditions: Expression<SqlBool>[]) {
  let query = db.selectFrom(table);
  for (const condition of conditions) query = query.where(condition);
  return query;
}

/** `count(*)` of the matches, as a query to run or to embed as a subquery. */
export function countOf(db: Kysely<DB>, table: Searched, conditions: Expression<SqlBool>[]) {
  return matching(db, table, conditions).select(sql<number>`count(*)`.as('n'));
}

export async function countMatches(
  db: Kysely<DB>,
  table: Searched,
  conditions: Expression<SqlBool>[],
): Promise<number> {
  const row = await countOf(db, table, conditions).executeTakeFirstOrThrow();
  return Number(row.n);
}
