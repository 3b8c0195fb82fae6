// One page of the rows nearest a point, in (distance, id) order, plus the total in the circle.
//
// The total is counted first, over the indexed bounding cube (index-only when there are no other
// filters). It then picks the page's plan, which the planner cannot pick itself because it cannot
// estimate how much of the table a cube holds:
// - few matches: sort them outright (bounding cube and filters through their indexes);
// - many: walk the GiST index nearest first (KNN) and stop just past the page. The walk is given
//   no bounding cube, or the planner would fetch and sort the whole circle instead; and the other
//   filters are applied outside a walk of fixed length (grown while it finds too few), or the
//   planner would rather fetch every row with the wanted breed and sort those.
// The index cannot break distance ties by id, so the walk fetches a little past the page and ties
// are ordered here; only when a tie runs past everything fetched (many entries at one address) is
// the circle sorted outright after all.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../db/schema.ts';
import { chordMetres, withinCircle, withinDistance, type Circle } from './geo.ts';
import { countMatches, matching, type Searched } from './matching.ts';
import type { Page } from './params.ts';

/** Rows fetched past the page, so that ties at its end can be ordered by id. */
const TIE_MARGIN = 50;
/** Up to this many matches, sorting them all costs less than walking to them. */
const SORT_OUTRIGHT_UP_TO = 1000;
/** How far a filtered walk goes at first, and at most, in multiples of the rows it needs. */
const WALK_START = 4;
const WALK_LIMIT = 64;

export type NearestHit = { id: number; chord: number };
export type NearestPage = { hits: NearestHit[]; total: number };

type Search = {
  db: Kysely<DB>;
  table: Searched;
  filters: Expression<SqlBool>[];
  circle: Circle;
  page: Page;
};

const byDistanceThenId = (a: NearestHit, b: NearestHit) => a.chord - b.chord || a.id - b.id;

function hitsOf(rows: { id: number; chord: number }[]): NearestHit[] {
  return rows.map((r) => ({ id: Number(r.id), chord: Number(r.chord) }));
}

async function sortedOutright({ db, table, filters, circle, page }: Search): Promise<NearestHit[]> {
  const distance = chordMetres(table, circle);
  const id = sql.ref<number>(`${table}.id`);
  const rows = await matching(db, table, [...filters, withinCircle(table, circle)])
    .select([id.as('id'), distance.as('chord')])
    .orderBy(distance)
    .orderBy(id)
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .execute();
  return hitsOf(rows);
}

/**
 * The `want` nearest matches in distance order (ties in index order), or null when a walk of the
 * longest length still found too few (then sorting outright is cheaper anyway).
 */
async function walk({ db, table, filters, circle }: Search, want: number): Promise<NearestHit[] | null> {
  const distance = chordMetres(table, circle);
  if (filters.length === 0) {
    const rows = await matching(db, table, [withinDistance(table, circle)])
      .select([sql.ref<number>(`${table}.id`).as('id'), distance.as('chord')])
      .orderBy(distance)
      .limit(want)
      .execute();
    return hitsOf(rows);
  }
  // The walk is a subquery with a limit, which the filters cannot be pushed into. It takes the
  // table's name as its alias, so the filters read its rows as they would the table's. The circle
  // holds more matches than wanted (the count said so), so a long enough walk finds them.
  for (let length = want * WALK_START; length <= want * WALK_LIMIT; length *= 4) {
    const { rows } = await sql<{ id: number; chord: number }>`
      select ${sql.ref(`${table}.id`)} as id, chord
      from (
        select *, ${distance} as chord from ${sql.table(table)}
        where ${withinDistance(table, circle)}
        order by ${distance} limit ${length}
      ) as ${sql.table(table)}
      where ${sql.join(filters, sql` and `)}
      order by chord limit ${want}`.execute(db);
    if (rows.length === want) return hitsOf(rows);
  }
  return null;
}

export async function nearestPage(
  db: Kysely<DB>,
  table: Searched,
  filters: Expression<SqlBool>[],
  circle: Circle,
  page: Page,
): Promise<NearestPage> {
  const search: Search = { db, table, filters, circle, page };
  const offset = (page.page - 1) * page.perPage;
  const needed = offset + page.perPage;
  const total = await countMatches(db, table, [...filters, withinCircle(table, circle)]);
  if (offset >= total) return { hits: [], total };
  if (total <= Math.max(needed + TIE_MARGIN, SORT_OUTRIGHT_UP_TO))
    return { hits: await sortedOutright(search), total };

  const walked = await walk(search, needed + TIE_MARGIN);
  if (!walked || walked.at(-1)?.chord === walked[needed - 1]?.chord) {
    return { hits: await sortedOutright(search), total };
  }
  return { hits: walked.sort(byDistanceThenId).slice(offset, needed), total };
}
