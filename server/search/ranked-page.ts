// One page of matches in rank order, with the total, as a subquery of ids to join summaries onto
// (so the summary columns are read for the page alone). The total is a count run once as an init
// plan rather than a window over the ranked rows: a count can stay in the indexes, a window would
// hold every ranked row.
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import { countOf, matching, type Searched } from './matching.ts';
import type { Page } from './params.ts';

export type Ordering = {
  /** The sort key, also returned as `rank`. */
  rank: RawBuilder<number>;
  direction: 'asc' | 'desc';
};

export function rankedIds(
  db: Kysely<DB>,
  table: Searched,
  conditions: Expression<SqlBool>[],
  ordering: Ordering,
  page: Page,
) {
  return matching(db, table, conditions)
    .select([
      sql.ref<number>(`${table}.id`).as('id'),
      ordering.rank.as('rank'),
      countOf(db, table, conditions).as('total'),
    ])
    .orderBy('rank', ordering.direction)
    .orderBy(sql.ref(`${table}.id`), ordering.direction)
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage);
}
