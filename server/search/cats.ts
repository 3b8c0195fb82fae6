// Cat search: text, filters, an optional map box and an optional circle, all applied together.
import type { CatSummary } from '../../contract/catalogue.ts';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { REUSED_PLAN } from '../db/plans.ts';
import type { DB } from '../db/schema.ts';
import type { Box } from '../../contract/map-grid.ts';
import { selectCatSummaries, toCatSummary, visible } from '../catalogue/index.ts';
import { inBox } from '../geo/box.ts';
import { chordToKm, type Circle } from './geo.ts';
import { nearestPage } from './nearest-page.ts';
import type { CatFilters, Page } from './params.ts';
import { rankedIds, totalOf } from './ranked-page.ts';
import { resolveText, textMatches, type TextQuery } from './text.ts';

export type CatSearch = {
  text: TextQuery | null;
  filters: CatFilters;
  /** Only cats whose place is inside this box ("Search this area"). */
  box?: Box | null;
  circle: Circle | null;
  page: Page;
};
export type CatResults = {
  cats: (CatSummary & { distance?: number })[];
  total: number;
  /** False when `total` is an estimate (more matches than the counting bound). */
  exact: boolean;
};

/** Labels compare case- and edge-space-insensitively, the way the filter options merge them. */
function sameLabel(column: 'cats.breed' | 'cats.personality', value: string): Expression<SqlBool> {
  return sql<boolean>`(btrim(${sql.ref(column)}) <> '' and lower(btrim(${sql.ref(column)})) = lower(${value}))`;
}

/**
 * Every filter and the text (resolved); the circle, if any, is the nearest page's own. The map's
 * filtered clusters share them.
 */
export function catConditions(search: Pick<CatSearch, 'filters' | 'text'>): Expression<SqlBool>[] {
  const { filters, text } = search;
  const out: Expression<SqlBool>[] = [];
  if (filters.breed !== null) out.push(sameLabel('cats.breed', filters.breed));
  if (filters.personality !== null) out.push(sameLabel('cats.personality', filters.personality));
  if (filters.isFriendly !== null) out.push(sql<boolean>`cats.is_friendly = ${filters.isFriendly}`);
  if (filters.rating.min !== null) out.push(sql<boolean>`cats.rating >= ${filters.rating.min}`);
  if (filters.rating.max !== null) out.push(sql<boolean>`cats.rating <= ${filters.rating.max}`);
  if (text) out.push(textMatches('cats', text));
  return out;
}

async function nearest(db: Kysely<DB>, search: CatSearch, circle: Circle): Promise<CatResults> {
  const { hits, total } = await nearestPage(db, 'cats', searchConditions(search), circle, search.page);
  const ids = hits.map((h) => h.id);
  const rows = ids.length > 0 ? await selectCatSummaries(db).where('cats.id', 'in', ids).execute() : [];
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  // A cat deleted between the two reads is simply left out.
  const cats = hits.flatMap((hit) => {
    const row = byId.get(hit.id);
    return row ? [{ ...toCatSummary(row), distance: chordToKm(hit.chord) }] : [];
  });
  return { cats, total, exact: true };
}

async function ranked(db: Kysely<DB>, search: CatSearch): Promise<CatResults> {
  const conditions = searchConditions(search);
  const rows = await selectCatSummaries(db)
    .innerJoin(rankedIds(db, 'cats', conditions, search.text, search.page).as('hits'), 'hits.id', 'cats.id')
    .select('hits.total')
    .orderBy('hits.rank', 'desc')
    .orderBy('hits.name_length')
    .orderBy('cats.id', 'desc')
    // A text search's plan follows its full-text index whatever the words; a box's depends on its size.
    .$if(search.text !== null && !search.box, (q) => q.modifyEnd(REUSED_PLAN))
    .execute();
  // An empty first page has nothing to count; an empty later one counts on its own.
  const counted = rows[0] ? Number(rows[0].total) : search.page.page === 1 ? 0 : undefined;
  const { total, exact } = await totalOf(db, 'cats', conditions, counted);
  return { cats: rows.map(toCatSummary), total, exact };
}

/** What a search finds: visible cats that meet every condition. */
function searchConditions(search: Pick<CatSearch, 'filters' | 'text' | 'box'>): Expression<SqlBool>[] {
  const box = search.box ? [inBox('cats', search.box)] : [];
  return [visible('cats'), ...box, ...catConditions(search)];
}

/** Nearest first within a circle; else best match first for text; else newest first. */
export async function searchCats(db: Kysely<DB>, search: CatSearch): Promise<CatResults> {
  const resolved = { ...search, text: await resolveText(db, search.text) };
  return search.circle ? nearest(db, resolved, search.circle) : ranked(db, resolved);
}
