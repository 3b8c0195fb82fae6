// One page of matches in rank order, with the total, as a subquery of ids to join summaries onto
// (so the summary columns are read for the page alone). Neither part grows with the number of
// matches:
// - the total is counted exactly up to COUNT_BOUND (the scan stops there); beyond it, it is
//   estimated from a fixed-size sample of the table and marked as an estimate;
// - with text, only a bounded candidate set is ranked: the names equal to or starting with the
//   typed words (from the name index, equal ones first) and as many other matches, taken from
//   those the count read.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import { matching, type Searched } from './matching.ts';
import type { Page } from './params.ts';
import { namePrefixMatches, nameWords, textScore, type TextQuery } from './text.ts';

/** Totals up to this are exact; above it they are estimates. */
export const COUNT_BOUND = 1000;
/** Matches ranked per kind of candidate (or the rows up to the page asked for, if more). */
export const CANDIDATES = 200;
/** Rows the estimate samples. */
const SAMPLE_ROWS = 2000;

export type Total = { total: number; exact: boolean };

const FIRST_MATCHES = 'first_matches';

/** The ids of up to one more match than the bound, in no particular order. */
function firstMatches(db: Kysely<DB>, table: Searched, conditions: Expression<SqlBool>[]) {
  return matching(db, table, conditions)
    .select(sql.ref<number>(`${table}.id`).as('id'))
    .limit(COUNT_BOUND + 1);
}

async function countUpToBound(db: Kysely<DB>, table: Searched, conditions: Expression<SqlBool>[]) {
  const row = await db
    .selectFrom(firstMatches(db, table, conditions).as('m'))
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The ids worth ranking for a text: names equal to or starting with it, in name order (equal
 * ones first), and other matches; as many of each as the page needs, and at least CANDIDATES.
 */
function candidates(
  db: Kysely<DB>,
  table: Searched,
  conditions: Expression<SqlBool>[],
  text: TextQuery,
  page: Page,
) {
  const limit = Math.max(CANDIDATES, page.page * page.perPage);
  const id = sql.ref<number>(`${table}.id`);
  const named = matching(db, table, [...conditions, namePrefixMatches(table, text)])
    .select(id.as('id'))
    .orderBy(nameWords(table))
    .limit(limit);
  // The matches the count has read anyway serve when they are enough.
  const others =
    limit <= COUNT_BOUND
      ? sql`select id from ${sql.table(FIRST_MATCHES)} limit ${limit}`
      : matching(db, table, conditions).select(id.as('id')).limit(limit);
  return sql<number>`(select id from (${named}) named union select id from (${others}) others)`;
}

export function rankedIds(
  db: Kysely<DB>,
  table: Searched,
  conditions: Expression<SqlBool>[],
  text: TextQuery | null,
  page: Page,
) {
  const id = sql.ref<number>(`${table}.id`);
  const withFirst = db.with(FIRST_MATCHES, () => firstMatches(db, table, conditions));
  // Best match first with text (among equals, the shorter name: fewer words besides the query),
  // else newest first.
  const [found, rank, length] =
    text && text.words.length > 0
      ? [
          withFirst.selectFrom(table).where(id, 'in', candidates(db, table, conditions, text, page)),
          textScore(table, text),
          sql<number>`length(${nameWords(table)})`,
        ]
      : [withFirst.selectFrom(table).where((eb) => eb.and(conditions)), sql<number>`0`, sql<number>`0`];
  return found
    .select([
      id.as('id'),
      rank.as('rank'),
      length.as('name_length'),
      sql<number>`(select count(*) from ${sql.table(FIRST_MATCHES)})`.as('total'),
    ])
    .orderBy('rank', 'desc')
    .orderBy('name_length')
    .orderBy(id, 'desc')
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage);
}

/** Two significant digits: an estimate should not look more precise than it is. */
function rounded(n: number): number {
  const unit = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
}

/**
 * The matches in a sample of the table's pages (the same pages every time), scaled to its size.
 * Only asked for past the bound, so never less than one more than it.
 */
async function estimateMatches(
  db: Kysely<DB>,
  table: Searched,
  conditions: Expression<SqlBool>[],
): Promise<number> {
  const { rows: stats } = await sql<{ rows: number }>`
    select reltuples as rows from pg_class where oid = ${table}::regclass`.execute(db);
  const rows = Number(stats[0]?.rows ?? -1);
  const percent = rows > SAMPLE_ROWS ? (100 * SAMPLE_ROWS) / rows : 100;
  const where = conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`true`;
  const { rows: sample } = await sql<{ hits: number; seen: number }>`
    select count(*) filter (where ${where}) as hits, count(*) as seen
    from ${sql.table(table)} tablesample system (${percent}) repeatable (0)`.execute(db);
  const hits = Number(sample[0]?.hits ?? 0);
  const seen = Number(sample[0]?.seen ?? 0);
  const scaled = seen > 0 ? (hits / seen) * Math.max(rows, seen) : 0;
  return Math.max(COUNT_BOUND + 1, rounded(scaled));
}

/**
 * The total from the page's own bounded count (`counted`; none when the page came back empty),
 * exact up to the bound and estimated beyond it.
 */
export async function totalOf(
  db: Kysely<DB>,
  table: Searched,
  conditions: Expression<SqlBool>[],
  counted: number | undefined,
): Promise<Total> {
  const n = counted ?? (await countUpToBound(db, table, conditions));
  if (n <= COUNT_BOUND) return { total: n, exact: true };
  return { total: await estimateMatches(db, table, conditions), exact: false };
}
