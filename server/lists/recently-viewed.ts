// Recently viewed: a capped per-user table, deliberately not event-sourced (views are not domain
// history). One row per item; a repeat view moves it to the top; at most 50 kept per user.
import { sql, type Kysely } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import {
  primaryPhotoUrls,
  selectBodegaSummaries,
  selectCatSummaries,
  toBodegaSummary,
  toCatSummary,
  toIso,
} from '../catalogue/read.ts';

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

type ViewedBase = {
  id: number;
  name: string;
  address: string;
  description: string;
  rating: number;
  review_count: number;
  primary_photo: string | null;
  primary_thumb: string | null;
  viewed_at: string;
};
export type ViewedItem =
  ({ type: 'cat'; bodega_name: string } & ViewedBase) | ({ type: 'bodega' } & ViewedBase);

async function viewedCats(db: Kysely<DB>, userId: number): Promise<ViewedItem[]> {
  const rows = await selectCatSummaries(db)
    .innerJoin('recently_viewed as rv', (join) =>
      join
        .onRef('rv.target_id', '=', 'cats.id')
        .on('rv.target_type', '=', 'cat')
        .on('rv.user_id', '=', userId),
    )
    .select('rv.viewed_at')
    .execute();
  return rows.map((row) => {
    const cat = toCatSummary(row);
    return {
      type: 'cat',
      id: cat.id,
      name: cat.name,
      bodega_name: cat.bodega_name,
      address: cat.address,
      description: cat.description,
      rating: cat.rating,
      review_count: cat.review_count,
      ...primaryPhotoUrls('cat', row.primary_filename),
      viewed_at: toIso(row.viewed_at),
    };
  });
}

async function viewedBodegas(db: Kysely<DB>, userId: number): Promise<ViewedItem[]> {
  const rows = await selectBodegaSummaries(db)
    .innerJoin('recently_viewed as rv', (join) =>
      join
        .onRef('rv.target_id', '=', 'bodegas.id')
        .on('rv.target_type', '=', 'bodega')
        .on('rv.user_id', '=', userId),
    )
    .select('rv.viewed_at')
    .execute();
  return rows.map((row) => {
    const bodega = toBodegaSummary(row);
    return {
      type: 'bodega',
      id: bodega.id,
      name: bodega.name,
      address: bodega.address,
      description: bodega.description,
      rating: bodega.rating,
      review_count: bodega.review_count,
      ...primaryPhotoUrls('bodega', row.primary_filename),
      viewed_at: toIso(row.viewed_at),
    };
  });
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
  const all = [...(await viewedCats(db, userId)), ...(await viewedBodegas(db, userId))].sort(newestFirst);
  return { items: all.slice((page - 1) * perPage, page * perPage), total: all.length };
}
