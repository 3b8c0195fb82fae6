// The detail responses of API.md: a cat with its bodega, a bodega with its cats. Both take `db` or
// the write's `trx` (a write answers with what it just wrote) and the viewer, for `saved`.
import type { Kysely } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import { isSaved } from '../lists/saves.ts';
import { listPhotos, type Photo } from '../photos/read.ts';
import {
  findBodegaSummary,
  selectBodegaSummaries,
  selectCatSummaries,
  toBodegaSummary,
  toCatSummary,
  type BodegaSummary,
  type CatSummary,
} from './read.ts';

type Detail = { creator_username: string | null; photos: Photo[]; version: number; saved: boolean };
export type CatDetail = CatSummary & Detail;
export type BodegaDetail = BodegaSummary & Detail;

export type CatResponse = { cat: CatDetail; bodega: BodegaSummary };
export type BodegaResponse = { bodega: BodegaDetail; cats: CatSummary[] };

/** The caller's user id, or null when signed out (who never has anything saved). */
export type Viewer = number | null;

async function savedBy(db: Kysely<DB>, viewer: Viewer, type: TargetType, id: number): Promise<boolean> {
  return viewer !== null && isSaved(db, viewer, type, id);
}

export async function catResponse(db: Kysely<DB>, id: number, viewer: Viewer): Promise<CatResponse | null> {
  const row = await selectCatSummaries(db)
    .leftJoin('users', 'users.id', 'cats.created_by')
    .select(['users.username as creator_username', 'cats.version'])
    .where('cats.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const bodega = await findBodegaSummary(db, Number(row.bodega_id));
  if (!bodega) return null;
  const cat: CatDetail = {
    ...toCatSummary(row),
    creator_username: row.creator_username ?? null,
    photos: await listPhotos(db, 'cat', id),
    version: row.version,
    saved: await savedBy(db, viewer, 'cat', id),
  };
  return { cat, bodega };
}

export async function bodegaResponse(
  db: Kysely<DB>,
  id: number,
  viewer: Viewer,
): Promise<BodegaResponse | null> {
  const row = await selectBodegaSummaries(db)
    .leftJoin('users', 'users.id', 'bodegas.created_by')
    .select(['users.username as creator_username', 'bodegas.version'])
    .where('bodegas.id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const cats = await selectCatSummaries(db)
    .where('cats.bodega_id', '=', id)
    .orderBy('cats.created_at')
    .orderBy('cats.id')
    .execute();
  const bodega: BodegaDetail = {
    ...toBodegaSummary(row),
    creator_username: row.creator_username ?? null,
    photos: await listPhotos(db, 'bodega', id),
    version: row.version,
    saved: await savedBy(db, viewer, 'bodega', id),
  };
  return { bodega, cats: cats.map(toCatSummary) };
}
