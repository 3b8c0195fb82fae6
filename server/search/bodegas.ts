// Bodega search: text, filters, an optional map box and an optional circle, all applied together.
import type { BodegaSummary } from '../../contract/catalogue.ts';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { REUSED_PLAN } from '../db/plans.ts';
import type { DB } from '../db/schema.ts';
import type { Box } from '../../contract/map-grid.ts';
import { selectBodegaSummaries, toBodegaSummary, visible } from '../catalogue/index.ts';
import { inBox } from '../geo/box.ts';
import { chordToKm, type Circle } from './geo.ts';
import { nearestPage } from './nearest-page.ts';
import type { BodegaFilters, Page } from './params.ts';
import { rankedIds, totalOf } from './ranked-page.ts';
import { resolveText, textMatches, type TextQuery } from './text.ts';

export type BodegaSearch = {
  text: TextQuery | null;
  filters: BodegaFilters;
  /** Only bodegas inside this box ("Search this area"). */
  box?: Box | null;
  circle: Circle | null;
  page: Page;
};
export type BodegaResults = {
  bodegas: (BodegaSummary & { distance?: number })[];
  total: number;
  /** False when `total` is an estimate (more matches than the counting bound). */
  exact: boolean;
};

/**
 * Every filter and the text (resolved); the circle, if any, is the nearest page's own. The map's
 * filtered clusters share them.
 */
export function bodegaConditions(search: Pick<BodegaSearch, 'filters' | 'text'>): Expression<SqlBool>[] {
  const { filters, text } = search;
  const out: Expression<SqlBool>[] = [];
  if (filters.catCount.min !== null) out.push(sql<boolean>`bodegas.cat_count >= ${filters.catCount.min}`);
  if (filters.catCount.max !== null) out.push(sql<boolean>`bodegas.cat_count <= ${filters.catCount.max}`);
  if (filters.verifiedOnly) out.push(sql<boolean>`bodegas.is_verified`);
  if (filters.rating.min !== null) out.push(sql<boolean>`bodegas.rating >= ${filters.rating.min}`);
  if (filters.rating.max !== null) out.push(sql<boolean>`bodegas.rating <= ${filters.rating.max}`);
  if (text) out.push(textMatches('bodegas', text));
  return out;
}

async function nearest(db: Kysely<DB>, search: BodegaSearch, circle: Circle): Promise<BodegaResults> {
  const { hits, total } = await nearestPage(db, 'bodegas', searchConditions(search), circle, search.page);
  const ids = hits.map((h) => h.id);
  const rows = ids.length > 0 ? await selectBodegaSummaries(db).where('bodegas.id', 'in', ids).execute() : [];
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  // A bodega deleted between the two reads is simply left out.
  const bodegas = hits.flatMap((hit) => {
    const row = byId.get(hit.id);
    return row ? [{ ...toBodegaSummary(row), distance: chordToKm(hit.chord) }] : [];
  });
  return { bodegas, total, exact: true };
}

async function ranked(db: Kysely<DB>, search: BodegaSearch): Promise<BodegaResults> {
  const conditions = searchConditions(search);
  const rows = await selectBodegaSummaries(db)
    .innerJoin(
      rankedIds(db, 'bodegas', conditions, search.text, search.page).as('hits'),
      'hits.id',
      'bodegas.id',
    )
    .select('hits.total')
    .orderBy('hits.rank', 'desc')
    .orderBy('hits.name_length')
    .orderBy('bodegas.id', 'desc')
    // A text search's plan follows its full-text index whatever the words; a box's depends on its size.
    .$if(search.text !== null && !search.box, (q) => q.modifyEnd(REUSED_PLAN))
    .execute();
  // An empty first page has nothing to count; an empty later one counts on its own.
  const counted = rows[0] ? Number(rows[0].total) : search.page.page === 1 ? 0 : undefined;
  const { total, exact } = await totalOf(db, 'bodegas', conditions, counted);
  return { bodegas: rows.map(toBodegaSummary), total, exact };
}

/** What a search finds: visible bodegas that meet every condition. */
function searchConditions(search: Pick<BodegaSearch, 'filters' | 'text' | 'box'>): Expression<SqlBool>[] {
  const box = search.box ? [inBox('bodegas', search.box)] : [];
  return [visible('bodegas'), ...box, ...bodegaConditions(search)];
}

/** Nearest first within a circle; else best match first for text; else newest first. */
export async function searchBodegas(db: Kysely<DB>, search: BodegaSearch): Promise<BodegaResults> {
  const resolved = { ...search, text: await resolveText(db, search.text) };
  return search.circle ? nearest(db, resolved, search.circle) : ranked(db, resolved);
}
