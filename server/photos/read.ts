// The Photo shape of API.md and the queries that list a target's photos.
import type { Kysely } from 'kysely';
import type { DB, PhotoRow, TargetType } from '../db/schema.ts';
import type { Photo } from '../../contract/catalogue.ts';
import { photoUrl } from './urls.ts';

/** What a Photo is built from: its row, or what the live stream knows of it from the log. */
export type PhotoFields = Pick<
  PhotoRow,
  | 'id'
  | 'target_type'
  | 'filename'
  | 'caption'
  | 'is_primary'
  | 'status'
  | 'width'
  | 'height'
  | 'uploaded_by'
  | 'created_at'
  | 'hidden'
>;

export function toPhoto(row: PhotoFields): Photo {
  const ready = row.status === 'ready';
  return {
    id: Number(row.id),
    filename: row.filename,
    caption: row.caption,
    is_primary: row.is_primary,
    status: row.status,
    url: ready ? photoUrl(row.target_type, row.filename, 'large') : null,
    thumb_url: ready ? photoUrl(row.target_type, row.filename, 'thumb') : null,
    width: ready ? row.width : null,
    height: ready ? row.height : null,
    uploaded_by: row.uploaded_by === null ? null : Number(row.uploaded_by),
    created_at: new Date(row.created_at).toISOString(),
    ...(row.hidden ? { hidden: true } : {}),
  };
}

/** A target's photos, primary first, then oldest first; hidden ones only if asked for. */
export async function listPhotos(
  db: Kysely<DB>,
  type: TargetType,
  targetId: number,
  options: { withHidden?: boolean } = {},
): Promise<Photo[]> {
  const rows = await db
    .selectFrom('photos')
    .selectAll()
    .where('target_type', '=', type)
    .where('target_id', '=', targetId)
    .$if(!options.withHidden, (q) => q.where('hidden', '=', false))
    .orderBy('is_primary', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toPhoto);
}

export async function findPhoto(db: Kysely<DB>, id: number): Promise<PhotoRow | undefined> {
  return db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirst();
}
