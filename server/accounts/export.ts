// Everything the product holds about one person, as one JSON document, for answering a data
// request (`npm run account -- export <username>`): the account (never the password hash), what
// each domain keeps about them (its part, accounts/personal-data.ts, in the order of the list it
// is given: server/personal-data.ts), the answers kept for retries, and their events in the log
// with the personal fields opened under their own key (events/personal.ts). Read in one
// repeatable-read transaction, so the parts agree with each other even while the app keeps writing.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { NotFound } from '../errors.ts';
import { openEvents, personalFieldsOf } from '../events/personal.ts';
import { EVENT_COLUMNS, type EventRow, toRecordedEvent } from '../events/store.ts';
import { streamIds, type EventMetadata } from '../events/types.ts';
import type { Services } from '../services.ts';
import type { PersonalData } from './personal-data.ts';
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

/** The account, and what is not any domain's: the answers kept for retries and the log. */
type AccountDocument = {
  exported_at: string;
  account: { id: number; username: string; email: string; created_at: string; role: 'member' | 'moderator' };
  /** Answers kept for retries with an Idempotency-Key (kept 24 hours); they can repeat a review. */
  stored_answers: { created_at: string; status_code: number; body: unknown }[];
  log: { about: string; events: LoggedEvent[] };
};

/** One type holding every member of a union: the parts side by side in one document. */
type AllOf<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer A) => void ? A : never;

/** The export of an account, with the parts of `Parts` (server/personal-data.ts names the app's). */
export type AccountExportOf<Parts extends readonly PersonalData[]> = AccountDocument &
  AllOf<Awaited<ReturnType<Parts[number]['export']>>>;

const LOG_ABOUT =
  'Every event in the log that this person caused (metadata.actor_id) or that names them ' +
  '(user_id, uploaded_by, created_by, moderator_id, or their account and saves streams), oldest ' +
  'first, as the product reads them: their own personal fields (review comments, photo captions, ' +
  'report comments, notes on moderation decisions) opened with their data key. The log stores those fields sealed under that key, ' +
  'and every other field as shown here. Failed sign-ins are counted under hashes of the name and ' +
  'address and cannot be attributed to anyone; photo files are in the photo storage (UPLOAD_DIR, or the S3 bucket) at the paths above.';

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

async function collect<Parts extends readonly PersonalData[]>(
  trx: Kysely<DB>,
  userId: number,
  parts: Parts,
): Promise<AccountExportOf<Parts>> {
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
  const document: Record<string, unknown> = {
    exported_at: new Date().toISOString(),
    account: {
      id: Number(user.id),
      username: user.username,
      email: user.email,
      created_at: iso(user.created_at),
      role: user.moderator ? 'moderator' : 'member',
    },
  };
  for (const part of parts) Object.assign(document, await part.export(trx, userId));
  const answers = await trx
    .selectFrom('idempotency_keys')
    .select(['created_at', 'status_code', 'body'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  document.stored_answers = answers.map((a) => ({
    created_at: iso(a.created_at),
    status_code: a.status_code,
    body: typeof a.body === 'string' ? JSON.parse(a.body) : a.body,
  }));
  document.log = { about: LOG_ABOUT, events: await loggedEvents(trx, userId) };
  // Each part's fields, as its `export` typed them (AccountExportOf).
  return document as AccountExportOf<Parts>;
}

/** The export of the account called `username` (case-insensitive); 404 when there is none. */
export async function exportAccountByUsername<Parts extends readonly PersonalData[]>(
  services: Pick<Services, 'database'>,
  username: string,
  parts: Parts,
): Promise<AccountExportOf<Parts>> {
  return services.database.db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const userId = await findUserIdByUsername(trx, username);
      if (userId === null) throw new NotFound(`No user is called "${username}"`);
      return collect(trx, userId, parts);
    });
}
