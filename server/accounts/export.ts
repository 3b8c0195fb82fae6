// Everything the product holds about one person, as one JSON document, for answering a data
// request (`npm run account -- export <username>`): the account (never the password hash), what
// they wrote and did from the read tables, and their events in the log with the personal fields
// opened under their own key (events/personal.ts). Read in one repeatable-read transaction, so the
// parts agree with each other even while the app keeps writing.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { openEvents, personalFieldsOf } from '../events/personal.ts';
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from '../events/store.ts';
import { streamIds, type EventMetadata } from '../events/types.ts';
import { photoUrl } from '../photos/urls.ts';
import type { Services } from '../services.ts';
import { findUserIdByUsername } from './users.ts';

/** What a personal field of someone else reads as in this person's export. */
export const NOT_THEIRS = "[another person's text]";

export type LoggedEvent = {
  position: number;
  stream_id: string;
  type: string;
  recorded_at: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
};

export type AccountExport = {
  exported_at: string;
  account: { id: number; username: string; email: string; created_at: string; role: 'member' | 'moderator' };
  reviews: {
    id: number;
    target_type: string;
    target_id: number;
    rating: number;
    comment: string;
    hidden: boolean;
    created_at: string;
  }[];
  photos: {
    id: number;
    target_type: string;
    target_id: number;
    caption: string;
    status: string;
    is_primary: boolean;
    hidden: boolean;
    url: string | null;
    thumb_url: string | null;
    /** Under UPLOAD_DIR, only until processing ends (it may carry the camera's GPS position). */
    original_path: string | null;
    created_at: string;
  }[];
  saves: { target_type: string; target_id: number; saved_at: string }[];
  recently_viewed: { target_type: string; target_id: number; viewed_at: string }[];
  reports: {
    id: number;
    target_type: string;
    target_id: number;
    reason: string;
    comment: string;
    open: boolean;
    created_at: string;
  }[];
  cats_added: { id: number; name: string; bodega_id: number; created_at: string }[];
  bodegas_added: { id: number; name: string; address: string; created_at: string }[];
  /** Accepted uploads still counted against the upload limits (kept a day). */
  upload_times: string[];
  /** Answers kept for retries with an Idempotency-Key (kept 24 hours); they can repeat a review. */
  stored_answers: { created_at: string; status_code: number; body: unknown }[];
  log: { about: string; events: LoggedEvent[] };
};

const LOG_ABOUT =
  'Every event in the log that this person caused (metadata.actor_id) or that names them ' +
  '(user_id, uploaded_by, created_by, moderator_id, or their account and saves streams), oldest ' +
  'first, as the product reads them: their own personal fields (review comments, photo captions, ' +
  'report comments, notes on moderation decisions) opened with their data key. The log stores those fields sealed under that key, ' +
  'and every other field as shown here. Failed sign-ins are counted under hashes of the name and ' +
  'address and cannot be attributed to anyone; photo files are under UPLOAD_DIR at the paths above.';

/** Drivers answer a timestamp as a Date or, through some paths, as text. */
function iso(value: unknown): string {
  return new Date(value as Date | string).toISOString();
}

/** The person's events, upcast and opened, with any other person's personal fields withheld. */
async function loggedEvents(trx: Kysely<DB>, userId: number): Promise<LoggedEvent[]> {
  const id = String(userId);
  const { rows } = await sql<EventRow>`
    select ${EVENT_COLUMNS}
    from events
    where stream_id in (${streamIds.account(userId)}, ${streamIds.saves(userId)})
       or metadata->>'actor_id' = ${id}
       or data->>'user_id' = ${id}
       or data->>'uploaded_by' = ${id}
       or data->>'created_by' = ${id}
       or data->>'moderator_id' = ${id}
    order by global_position`.execute(trx);
  const opened = await openEvents(trx, rows.map(toRecordedEvent));
  return opened.map((event) => {
    const data = { ...(event.data as Record<string, unknown>) };
    const personal = personalFieldsOf(event.type, data);
    if (personal && personal.owner !== userId) {
      for (const field of personal.fields) if (field in data) data[field] = NOT_THEIRS;
    }
    return {
      position: event.position,
      stream_id: event.streamId,
      type: event.type,
      recorded_at: event.recordedAt.toISOString(),
      data,
      metadata: event.metadata,
    };
  });
}

async function collect(trx: Kysely<DB>, userId: number): Promise<AccountExport> {
  const user = await trx
    .selectFrom('users')
    .select([
      'id',
      'username',
      'email',
      'created_at',
      sql<boolean>`exists (select 1 from moderators m where m.user_id = users.id)`.as('moderator'),
    ])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const reviews = await trx
    .selectFrom('reviews')
    .select(['id', 'target_type', 'target_id', 'rating', 'comment', 'hidden', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  const photos = await trx
    .selectFrom('photos')
    .select([
      'id',
      'target_type',
      'target_id',
      'caption',
      'status',
      'is_primary',
      'hidden',
      'filename',
      'original_path',
      'created_at',
    ])
    .where('uploaded_by', '=', userId)
    .orderBy('id')
    .execute();
  const saves = await trx
    .selectFrom('saves')
    .select(['target_type', 'target_id', 'saved_at'])
    .where('user_id', '=', userId)
    .orderBy('saved_at')
    .execute();
  const viewed = await trx
    .selectFrom('recently_viewed')
    .select(['target_type', 'target_id', 'viewed_at'])
    .where('user_id', '=', userId)
    .orderBy('viewed_at', 'desc')
    .execute();
  const reports = await trx
    .selectFrom('reports')
    .select(['id', 'target_type', 'target_id', 'reason', 'comment', 'open', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  const cats = await trx
    .selectFrom('cats')
    .select(['id', 'name', 'bodega_id', 'created_at'])
    .where('created_by', '=', userId)
    .orderBy('id')
    .execute();
  const bodegas = await trx
    .selectFrom('bodegas')
    .select(['id', 'name', 'address', 'created_at'])
    .where('created_by', '=', userId)
    .orderBy('id')
    .execute();
  const uploads = await trx
    .selectFrom('photo_upload_log')
    .select('uploaded_at')
    .where('user_id', '=', userId)
    .orderBy('uploaded_at')
    .execute();
  const answers = await trx
    .selectFrom('idempotency_keys')
    .select(['created_at', 'status_code', 'body'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();

  return {
    exported_at: new Date().toISOString(),
    account: {
      id: Number(user.id),
      username: user.username,
      email: user.email,
      created_at: iso(user.created_at),
      role: user.moderator ? 'moderator' : 'member',
    },
    reviews: reviews.map((r) => ({
      id: Number(r.id),
      target_type: r.target_type,
      target_id: Number(r.target_id),
      rating: Number(r.rating),
      comment: r.comment,
      hidden: r.hidden,
      created_at: iso(r.created_at),
    })),
    photos: photos.map((p) => {
      const ready = p.status === 'ready';
      return {
        id: Number(p.id),
        target_type: p.target_type,
        target_id: Number(p.target_id),
        caption: p.caption,
        status: p.status,
        is_primary: p.is_primary,
        hidden: p.hidden,
        url: ready ? photoUrl(p.target_type, p.filename, 'large') : null,
        thumb_url: ready ? photoUrl(p.target_type, p.filename, 'thumb') : null,
        original_path: ready ? null : p.original_path,
        created_at: iso(p.created_at),
      };
    }),
    saves: saves.map((s) => ({
      target_type: s.target_type,
      target_id: Number(s.target_id),
      saved_at: iso(s.saved_at),
    })),
    recently_viewed: viewed.map((v) => ({
      target_type: v.target_type,
      target_id: Number(v.target_id),
      viewed_at: iso(v.viewed_at),
    })),
    reports: reports.map((r) => ({
      id: Number(r.id),
      target_type: r.target_type,
      target_id: Number(r.target_id),
      reason: r.reason,
      comment: r.comment,
      open: r.open,
      created_at: iso(r.created_at),
    })),
    cats_added: cats.map((c) => ({
      id: Number(c.id),
      name: c.name,
      bodega_id: Number(c.bodega_id),
      created_at: iso(c.created_at),
    })),
    bodegas_added: bodegas.map((b) => ({
      id: Number(b.id),
      name: b.name,
      address: b.address,
      created_at: iso(b.created_at),
    })),
    upload_times: uploads.map((u) => iso(u.uploaded_at)),
    stored_answers: answers.map((a) => ({
      created_at: iso(a.created_at),
      status_code: a.status_code,
      body: typeof a.body === 'string' ? JSON.parse(a.body) : a.body,
    })),
    log: { about: LOG_ABOUT, events: await loggedEvents(trx, userId) },
  };
}

/** The export of the account called `username` (case-insensitive); 404 when there is none. */
export async function exportAccountByUsername(
  services: Pick<Services, 'database'>,
  username: string,
): Promise<AccountExport> {
  return services.database.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const userId = await findUserIdByUsername(trx, username);
      if (userId === null) throw new NotFound(`No user is called "${username}"`);
      return collect(trx, userId);
    });
}
