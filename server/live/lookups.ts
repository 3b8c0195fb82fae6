// The facts a live message needs that its event does not carry. Wherever the log can answer, it
// answers "as of the event" from the entity's own stream (every BodegaUpdated carries all fields,
// a photo's upload event its name and caption), so a message never shows a later edit or
// misses a deleted row, and every api instance and every replay builds the same bytes.
// Two answers come from tables instead: usernames (users are not events and never change name)
// and a target's primary photo, which the photos read model also moves without an event (first
// upload, deletion of the primary); sending it as it now stands keeps every client converging.
// A hidden photo is never anyone's primary here, as in the catalogue's reads.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { openEvents } from '../events/personal.ts';
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from '../events/store.ts';
import { streamIds, type BodegaFields, type RecordedEvent } from '../events/types.ts';
import type { LiveLookups } from './messages.ts';

const USERNAME_CACHE = 5000;
const CAT_BODEGA_CACHE = 5000;

export function createLiveLookups(db: Kysely<DB>): LiveLookups {
  const usernames = new Map<number, string>();
  const catBodegas = new Map<number, number>();
  return {
    async bodegaAsOf(bodegaId, position) {
      const [latest] = await streamBefore(db, streamIds.bodega(bodegaId), position, [
        'BodegaAdded',
        'BodegaUpdated',
      ]);
      if (!latest || (latest.type !== 'BodegaAdded' && latest.type !== 'BodegaUpdated')) return null;
      return bodegaFieldsOf(latest.data);
    },
    async photoUpload(photoId) {
      const [upload] = await streamBefore(db, streamIds.photo(photoId), Number.MAX_SAFE_INTEGER, [
        'PhotoUploaded',
      ]);
      if (upload?.type !== 'PhotoUploaded') return null;
      const d = upload.data;
      return {
        filename: d.filename,
        caption: d.caption,
        uploadedBy: d.uploaded_by,
        uploadedAt: upload.recordedAt,
      };
    },
    async primaryPhotoOf(type, targetId) {
      const row = await db
        .selectFrom('photos')
        .select(['id', 'filename'])
        .where('target_type', '=', type)
        .where('target_id', '=', targetId)
        .where('is_primary', '=', true)
        .where('status', '=', 'ready')
        .where('hidden', '=', false)
        .executeTakeFirst();
      return row ? { id: Number(row.id), filename: row.filename } : null;
    },
    async targetDeletedIn(type, targetId, transactionId) {
      const [streamId, deletion] =
        type === 'cat'
          ? [streamIds.cat(targetId), 'CatDeleted']
          : [streamIds.bodega(targetId), 'BodegaDeleted'];
      const row = await db
        .selectFrom('events')
        .select('global_position')
        .where('stream_id', '=', streamId)
        .where('type', '=', deletion)
        .where(sql<boolean>`transaction_id = ${transactionId}::xid8`)
        .executeTakeFirst();
      return row !== undefined;
    },
    async catBodega(catId) {
      const known = catBodegas.get(catId);
      if (known !== undefined) return known;
      const row = await db.selectFrom('cats').select('bodega_id').where('id', '=', catId).executeTakeFirst();
      let bodegaId = row ? Number(row.bodega_id) : null;
      if (bodegaId === null) {
        // Deleted: its CatAdded still says where it was.
        const [added] = await streamBefore(db, streamIds.cat(catId), Number.MAX_SAFE_INTEGER, ['CatAdded']);
        if (added?.type === 'CatAdded') bodegaId = added.data.bodega_id;
      }
      if (bodegaId === null) return null;
      if (catBodegas.size >= CAT_BODEGA_CACHE) catBodegas.clear();
      catBodegas.set(catId, bodegaId);
      return bodegaId;
    },
    async username(userId) {
      const known = usernames.get(userId);
      if (known !== undefined) return known;
      const row = await db.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
      if (!row) return null;
      if (usernames.size >= USERNAME_CACHE) usernames.clear();
      usernames.set(userId, row.username);
      return row.username;
    },
  };
}

/** A stream's events of the given types at or before a log position, newest first. */
async function streamBefore(
  db: Kysely<DB>,
  streamId: string,
  position: number,
  types: string[],
): Promise<RecordedEvent[]> {
  // Appends to one stream are serialised by its version row, so positions grow with versions.
  const { rows } = await sql<EventRow>`
    select ${EVENT_COLUMNS}
    from events
    where stream_id = ${streamId} and global_position <= ${position}
      and type in (${sql.join(types)})
    order by stream_version desc`.execute(db);
  return openEvents(db, rows.map(toRecordedEvent));
}

function bodegaFieldsOf(d: BodegaFields): BodegaFields {
  return {
    name: d.name,
    address: d.address,
    latitude: d.latitude,
    longitude: d.longitude,
    description: d.description,
    phone: d.phone,
    hours: d.hours,
  };
}
