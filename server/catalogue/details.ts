// The detail responses of API.md: a cat with its bodega, a bodega with its cats. Both take `db` or
// the write's `trx` (a write answers with what it just wrote) and the viewer, for `saved`.
import type { Kysely } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import type { BodegaDetail, BodegaResponse, CatDetail, CatResponse } from '../../contract/catalogue.ts';
import type { Role } from '../../contract/users.ts';
import { shownTo } from '../events/targets.ts';
import { listPhotos } from '../photos/index.ts';
import {
  findBodegaSummary,
  selectBodegaSummaries,
  selectCatSummaries,
  toBodegaSummary,
  toCatSummary,
} from './read.ts';

/** The caller, or null when signed out (who never has anything saved). */
export type Viewer = { id: number; role: Role } | null;

/**
 * What the catalogue asks of a signed-in reader's own lists. The lists domain answers (routes.ts
 * hands it to the catalogue's routes), so the catalogue never imports it.
 */
export type ReaderLists = {
  isSaved(db: Kysely<DB>, userId: number, type: TargetType, id: number): Promise<boolean>;
  recordView(db: Kysely<DB>, userId: number, type: TargetType, id: number): Promise<void>;
  /** Drops every reader's views of deleted items, in the deletion's transaction. */
  forgetViews(trx: Kysely<DB>, type: TargetType, ids: number[]): Promise<void>;
};

type Reader = { viewer: Viewer; lists: ReaderLists };

async function savedBy(db: Kysely<DB>, reader: Reader, type: TargetType, id: number): Promise<boolean> {
  return reader.viewer !== null && reader.lists.isSaved(db, reader.viewer.id, type, id);
}

// Hidden content is shown (marked `hidden: true`) to moderators and its creator only; to anyone
// else it is not there (null: a 404).
const hiddenMark = (hidden: boolean) => (hidden ? { hidden: true } : {});

export async function catResponse(db: Kysely<DB>, id: number, reader: Reader): Promise<CatResponse | null> {
  const row = await selectCatSummaries(db, { withHidden: true })
    .leftJoin('users', 'users.id', 'cats.created_by')
    .select(['users.username as creator_username', 'cats.version', 'cats.hidden'])
    .where('cats.id', '=', id)
    .executeTakeFirst();
  if (!row || !shownTo(reader.viewer, row)) return null;
  const bodega = await findBodegaSummary(db, Number(row.bodega_id), { withHidden: row.hidden });
  if (!bodega) return null;
  const cat: CatDetail = {
    ...toCatSummary(row),
    creator_username: row.creator_username ?? null,
    photos: await listPhotos(db, 'cat', id, { withHidden: reader.viewer?.role === 'moderator' }),
    version: row.version,
    saved: await savedBy(db, reader, 'cat', id),
    ...hiddenMark(row.hidden),
  };
  return { cat, bodega };
}

export async function bodegaResponse(
  db: Kysely<DB>,
  id: number,
  reader: Reader,
): Promise<BodegaResponse | null> {
  const row = await selectBodegaSummaries(db, { withHidden: true })
    .leftJoin('users', 'users.id', 'bodegas.created_by')
    .select(['users.username as creator_username', 'bodegas.version', 'bodegas.hidden'])
    .where('bodegas.id', '=', id)
    .executeTakeFirst();
  if (!row || !shownTo(reader.viewer, row)) return null;
  // Whoever sees a hidden bodega sees the cats it hides with it, but not cats hidden themselves
  // (unless a moderator).
  const moderator = reader.viewer?.role === 'moderator';
  const cats = await selectCatSummaries(db, { withHidden: row.hidden || moderator })
    .where('cats.bodega_id', '=', id)
    .$if(!moderator, (q) => q.where('cats.hidden_self', '=', false))
    .orderBy('cats.created_at')
    .orderBy('cats.id')
    .execute();
  const bodega: BodegaDetail = {
    ...toBodegaSummary(row),
    creator_username: row.creator_username ?? null,
    photos: await listPhotos(db, 'bodega', id, { withHidden: moderator }),
    version: row.version,
    saved: await savedBy(db, reader, 'bodega', id),
    ...hiddenMark(row.hidden),
  };
  return { bodega, cats: cats.map(toCatSummary) };
}
