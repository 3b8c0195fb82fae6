// Recently viewed: a capped per-user table, deliberately not event-sourced (views are not domain
// history). One row per item; a repeat view moves it to the top; at most 50 kept per user.
import { sql, type Kysely } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import type { BodegaSummary, CatSummary } from '../../contract/catalogue.ts';
import type { ViewedItem } from '../../contract/lists.ts';
import { toBodegaSummary, toCatSummary, toIso } from '../catalogue/index.ts';
import { listedBodegas, listedCats } from './listed.ts';

export const RECENTLY_VIEWED_CAP = 50;
/** Views of the same item closer together than this change nothing (a page's refetches). */
const QUIET_MS = 1000;

/**
 * Records that the user viewed the item at `at`. A repeat view within the quiet second changes no
 * row while the item is still the newest entry, but one that follows a view of something else
 * moves the item back to the top. Only while the account exists: every view holds the user's row
 * (key share) for its one statement, so an account deletion, which locks that row before it
 * clears the person's views, either clears this one too or finds it never written.
 */
export async function recordView(
  db: Kysely<DB>,
  userId: number,
  type: TargetType,
  targetId: number,
  at = new Date(),
): Promise<void> {
  const quietSince = new Date(at.getTime() - QUIET_MS);
  const { rows } = await sql<{ inserted: boolean }>`
    insert into recently_viewed as rv (user_id, target_type, target_id, viewed_at)
    select ${userId}, ${type}, ${targetId}, ${at}::timestamptz from users where id = ${userId} for key share
    on conflict (user_id, target_type, target_id) do update set viewed_at = excluded.viewed_at
    where rv.viewed_at < ${quietSince}
      or exists (
        select 1 from recently_viewed other
        where other.user_id = rv.user_id
          and other.viewed_at >= rv.viewed_at
          and (other.target_type, other.target_id) <> (rv.target_type, rv.target_id)
      )
    returning (xmax = 0) as inserted`.execute(db);
  // Only a new row can push the list over the cap.
  if (rows[0]?.inserted) {
    await sql`
      delete from recently_viewed
      where user_id = ${userId}
        and (target_type, target_id) in (
          select target_type, target_id from recently_viewed
          where user_id = ${userId}
          order by viewed_at desc, target_type, target_id
          offset ${RECENTLY_VIEWED_CAP}
        )`.execute(db);
  }
}

/** Drops every user's views of deleted items; the catalogue's delete routes call it (ReaderLists). */
export async function forgetViews(db: Kysely<DB>, type: TargetType, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .deleteFrom('recently_viewed')
    .where('target_type', '=', type)
    .where('target_id', 'in', ids)
    .execute();
}

export async function clearRecentlyViewed(db: Kysely<DB>, userId: number): Promise<void> {
  await db.deleteFrom('recently_viewed').where('user_id', '=', userId).execute();
}

/** What the list shows of a cat or bodega the reader viewed. */
function viewed(summary: CatSummary | BodegaSummary, viewedAt: Date | string) {
  return {
    id: summary.id,
    name: summary.name,
    address: summary.address,
    description: summary.description,
    rating: summary.rating,
    review_count: summary.review_count,
    primary_photo: summary.primary_photo,
    primary_thumb: summary.primary_thumb,
    viewed_at: toIso(viewedAt),
  };
}

async function viewedItems(db: Kysely<DB>, userId: number): Promise<ViewedItem[]> {
  const cats = await listedCats(db, 'recently_viewed', userId).select('entry.viewed_at').execute();
  const bodegas = await listedBodegas(db, 'recently_viewed', userId).select('entry.viewed_at').execute();
  return [
    ...cats.map((row): ViewedItem => {
      const cat = toCatSummary(row);
      return { type: 'cat', bodega_name: cat.bodega_name, ...viewed(cat, row.viewed_at) };
    }),
    ...bodegas.map((row): ViewedItem => ({ type: 'bodega', ...viewed(toBodegaSummary(row), row.viewed_at) })),
  ];
}

// The same order the cap keeps: newest first, ties broken by type then id.
function newestFirst(a: ViewedItem, b: ViewedItem): number {
  return b.viewed_at.localeCompare(a.viewed_at) || a.type.localeCompare(b.type) || a.id - b.id;
}

/**
 * One page of the user's history. The whole list is at most the cap, so both kinds are read and
 * merged here; joining the catalogue means deleted items never show.
 */
export async function listRecentlyViewed(
  db: Kysely<DB>,
  userId: number,
  { page, perPage }: { page: number; perPage: number },
): Promise<{ items: ViewedItem[]; total: number }> {
  const all = (await viewedItems(db, userId)).sort(newestFirst);
  return { items: all.slice((page - 1) * perPage, page * perPage), total: all.length };
}
