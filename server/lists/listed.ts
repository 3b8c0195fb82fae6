// The cats and bodegas of one reader's list (saves, recently viewed): the catalogue's summary
// selects joined to the list's rows that name them (as `entry`, for the list's own columns), so
// deleted or hidden items never show. The caller adds the time column, order and page.
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import { selectBodegaSummaries, selectCatSummaries } from '../catalogue/index.ts';

type ListTable = 'saves' | 'recently_viewed';

/** The entry is the reader's and names the row of `table`. */
function readersEntry(table: 'cats' | 'bodegas', userId: number) {
  const type = table === 'cats' ? 'cat' : 'bodega';
  return sql<SqlBool>`${sql.ref('entry.target_id')} = ${sql.ref(`${table}.id`)}
    and ${sql.ref('entry.target_type')} = ${type} and ${sql.ref('entry.user_id')} = ${userId}`;
}

export function listedCats<L extends ListTable>(db: Kysely<DB>, list: L, userId: number) {
  return selectCatSummaries(db).innerJoin(`${list} as entry`, (join) =>
    join.on(readersEntry('cats', userId)),
  );
}

export function listedBodegas<L extends ListTable>(db: Kysely<DB>, list: L, userId: number) {
  return selectBodegaSummaries(db).innerJoin(`${list} as entry`, (join) =>
    join.on(readersEntry('bodegas', userId)),
  );
}
