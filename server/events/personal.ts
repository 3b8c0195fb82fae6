// Crypto-shredding of personal data in the event log. The free text people write (review comments,
// photo captions, report comments, moderators' decision notes) is stored sealed (AES-256-GCM) under a data key of its own
// author, kept in user_keys and itself wrapped by the master key DATA_KEY. Deleting an account
// deletes its key: its events stay in the log, but those fields can never be opened again and read
// as ERASED. Appends seal (sealEventData), every read of the log opens (openEvents).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../db/schema.ts';
import { Unauthorized } from '../errors.ts';
import { streamIds, type EventType, type NewEvent, type RecordedEvent } from './types.ts';

/** What a personal field reads as once its author's key is gone. */
export const ERASED = '[erased]';

export const ACCOUNT_GONE = 'This account no longer exists. Please sign up or log in again.';

/** The personal fields of each event type, and the field naming whose they are. */
export const PERSONAL_FIELDS: Partial<Record<EventType, { owner: string; fields: readonly string[] }>> = {
  ReviewPosted: { owner: 'user_id', fields: ['comment'] },
  PhotoUploaded: { owner: 'uploaded_by', fields: ['caption'] },
  ContentReported: { owner: 'user_id', fields: ['comment'] },
  // A moderator's note on a decision is their own free text (it may well name or quote others).
  ModerationDecided: { owner: 'moderator_id', fields: ['note'] },
};

export const PERSONAL_EVENT_TYPES = Object.keys(PERSONAL_FIELDS) as EventType[];

/** A personal field as stored: sealed, or marked erased when its author's account was deleted. */
type StoredField = { sealed: string } | { erased: true };

const IV_BYTES = 12;
const TAG_BYTES = 16;

let masterKey: Buffer | null = null;

/** Sets DATA_KEY for this process (createServices does, from the config). */
export function useDataKey(key: Buffer): void {
  if (key.length !== 32) throw new Error('DATA_KEY must be 32 bytes');
  masterKey = key;
}

function master(): Buffer {
  if (!masterKey) throw new Error('DATA_KEY has not been set (useDataKey) before personal data was used');
  return masterKey;
}

/** A key that does not unwrap under DATA_KEY: the process was started with another master key. */
export class DataKeyMismatchError extends Error {
  override name = 'DataKeyMismatchError';
  constructor() {
    super(
      'DATA_KEY is not the key this database was sealed with: personal data cannot be opened. ' +
        'Start with the DATA_KEY the data was written under.',
    );
  }
}

function encrypt(key: Buffer, plaintext: Buffer, aad: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

/** Null when the bytes do not open under this key (wrong key or altered bytes). */
function decrypt(key: Buffer, sealed: Buffer, aad: string): Buffer | null {
  if (sealed.length < IV_BYTES + TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    return null;
  }
}

function unwrap(userId: number, wrapped: Buffer): Buffer {
  const key = decrypt(master(), wrapped, `user-key:${userId}`);
  if (!key) throw new DataKeyMismatchError();
  return key;
}

export function sealField(key: Buffer, ownerId: number, value: string): StoredField {
  return { sealed: encrypt(key, Buffer.from(value, 'utf8'), `personal:${ownerId}`).toString('base64') };
}

/** The field's text; ERASED when it cannot be opened (no key, or not sealed under this one). */
export function openField(key: Buffer | undefined, ownerId: number, stored: unknown): string {
  if (typeof stored === 'string') return stored; // written before sealing existed (schema v1)
  if (!key || !stored || typeof stored !== 'object' || !('sealed' in stored)) return ERASED;
  const text = decrypt(key, Buffer.from(String(stored.sealed), 'base64'), `personal:${ownerId}`);
  return text ? text.toString('utf8') : ERASED;
}

/**
 * An account a write transaction holds (runCommand's account hold): the account exists and a
 * deletion waits for the transaction, so the person's key needs no check of its own. The hold read
 * their wrapped key in its statement (null when they have none yet).
 */
export type HeldAccount = { userId: number; wrappedKey: Buffer | null };

/** The account `userId` as held, with the wrapped key its hold statement read. */
export function heldAccount(userId: number, wrappedKey: unknown): HeldAccount {
  return { userId, wrappedKey: wrappedKey ? Buffer.from(wrappedKey as Buffer) : null };
}

/** The wrapped key as the account hold's statement reads it (see heldAccount). */
export function wrappedKeyOf(userId: number): RawBuilder<unknown> {
  return sql`(select k.wrapped_key from user_keys k where k.user_id = ${userId})`;
}

/**
 * The user's data key for sealing, made on first use; null when their account has been deleted.
 * Under an account hold (see HeldAccount) it costs no statement once the key exists. Otherwise an
 * existing user row is held (key share) to the end of the transaction, so an account deletion,
 * which locks the row first, either waits for this write or has already committed its
 * AccountDeleted, which this then finds. (A user id with no account that was never deleted, as
 * written by tools and tests around the API, gets a key like anyone.)
 */
async function keyForSealing(
  trx: Kysely<DB>,
  userId: number,
  held: HeldAccount | null,
): Promise<Buffer | null> {
  if (held?.userId === userId) {
    if (held.wrappedKey) return unwrap(userId, held.wrappedKey);
    return (await newKey(trx, userId)) ?? heldKey(trx, held);
  }
  // Its own statement, so that the next one's snapshot sees a deletion this had to wait for.
  const present = await sql`select id from users where id = ${userId} for key share`.execute(trx);
  const { rows } = await sql<{ deleted: boolean; wrapped_key: Buffer | null }>`
    select exists (select 1 from events e where e.stream_id = ${streamIds.account(userId)}
                   and e.type = 'AccountDeleted') as deleted,
           ${wrappedKeyOf(userId)} as wrapped_key`.execute(trx);
  const row = rows[0]!;
  if (present.rows.length === 0 && row.deleted) return null;
  if (row.wrapped_key) return unwrap(userId, Buffer.from(row.wrapped_key));
  // Another write made the key first (and has committed: the conflict waited for it).
  return (await newKey(trx, userId)) ?? keyForSealing(trx, userId, held);
}

/** A new key for the user, stored wrapped; null when another write stored theirs first. */
async function newKey(trx: Kysely<DB>, userId: number): Promise<Buffer | null> {
  const key = randomBytes(32);
  const wrapped = encrypt(master(), key, `user-key:${userId}`);
  const inserted = await sql<{ user_id: number }>`
    insert into user_keys (user_id, wrapped_key) values (${userId}, ${wrapped})
    on conflict (user_id) do nothing returning user_id`.execute(trx);
  return inserted.rows.length > 0 ? key : null;
}

/** A held account's key that another write stored meanwhile (the conflict waited for its commit). */
async function heldKey(trx: Kysely<DB>, held: HeldAccount): Promise<Buffer> {
  const { userId } = held;
  const { rows } = await sql<{ wrapped_key: Buffer }>`select ${wrappedKeyOf(userId)} as wrapped_key`.execute(
    trx,
  );
  held.wrappedKey = Buffer.from(rows[0]!.wrapped_key);
  return unwrap(userId, held.wrappedKey);
}

/** The personal fields of an event and whose they are; null for an event that has none. */
export function personalFieldsOf(
  type: string,
  data: Record<string, unknown>,
): { owner: number; fields: readonly string[] } | null {
  const owner = ownerOf(type, data);
  return owner === null ? null : { owner, fields: PERSONAL_FIELDS[type as EventType]!.fields };
}

function ownerOf(type: string, data: Record<string, unknown>): number | null {
  const spec = PERSONAL_FIELDS[type as EventType];
  if (!spec) return null;
  const owner = Number(data[spec.owner]);
  return Number.isSafeInteger(owner) && owner > 0 ? owner : null;
}

/**
 * Each event's payload as it is stored: personal fields sealed under their author's key. A deleted
 * account cannot write: 401, and the transaction rolls back. `held`: the account the transaction
 * holds, if any.
 */
export async function sealEventData(
  trx: Kysely<DB>,
  events: readonly NewEvent[],
  held: HeldAccount | null,
): Promise<object[]> {
  const keys = new Map<number, Buffer>();
  const out: object[] = [];
  for (const event of events) {
    const data = event.data as Record<string, unknown>;
    const owner = ownerOf(event.type, data);
    if (owner === null) {
      out.push(data);
      continue;
    }
    let key = keys.get(owner);
    if (!key) {
      key = (await keyForSealing(trx, owner, held)) ?? undefined;
      if (!key) throw new Unauthorized(ACCOUNT_GONE);
      keys.set(owner, key);
    }
    out.push(sealFields(event.type, data, owner, key));
  }
  return out;
}

function sealFields(type: string, data: Record<string, unknown>, owner: number, key: Buffer | null) {
  const sealed = { ...data };
  for (const field of PERSONAL_FIELDS[type as EventType]!.fields) {
    const value = data[field];
    if (typeof value === 'string')
      sealed[field] = key ? sealField(key, owner, value) : ({ erased: true } satisfies StoredField);
  }
  return sealed;
}

/**
 * The events with their personal fields opened: the text, or ERASED where the author's key is gone.
 * Every reader of the log passes what it read through this (inline projections get the appended
 * events as written, never sealed).
 */
export async function openEvents<E extends RecordedEvent>(db: Kysely<DB>, events: E[]): Promise<E[]> {
  const owners = new Set<number>();
  for (const event of events) {
    const owner = ownerOf(event.type, event.data as Record<string, unknown>);
    if (owner !== null) owners.add(owner);
  }
  if (owners.size === 0) return events;
  const keys = await keysOf(db, [...owners]);
  return events.map((event) => {
    const data = event.data as Record<string, unknown>;
    const owner = ownerOf(event.type, data);
    if (owner === null) return event;
    const opened = { ...data };
    for (const field of PERSONAL_FIELDS[event.type]!.fields) {
      if (field in data) opened[field] = openField(keys.get(owner), owner, data[field]);
    }
    return { ...event, data: opened };
  });
}

async function keysOf(db: Kysely<DB>, userIds: number[]): Promise<Map<number, Buffer>> {
  // Readers open before pointing a transaction at replay's shadow tables (which have no user_keys).
  const { rows } = await sql<{ user_id: number | string; wrapped_key: Buffer }>`
    select user_id, wrapped_key from user_keys where user_id = any(${userIds}::bigint[])`.execute(db);
  return new Map(rows.map((r) => [Number(r.user_id), unwrap(Number(r.user_id), Buffer.from(r.wrapped_key))]));
}

/** Whether a stored payload still holds a personal field in plain text. */
function hasPlainField(type: string, data: Record<string, unknown>): boolean {
  const spec = PERSONAL_FIELDS[type as EventType];
  return !!spec && spec.fields.some((f) => typeof data[f] === 'string');
}

const REWRITE_BATCH = 500;

/**
 * The schema version from which each personal event type stores its fields sealed (2 for all of
 * them). Not the current version: a later change of shape (ContentReported 3) leaves sealing alone.
 */
const SEALED_SINCE = 2;

/** Events stored under a schema version from before sealing (personal fields in plain text). */
const storedInPlain = sql<boolean>`type = any(${PERSONAL_EVENT_TYPES}::text[])
  and schema_version < ${SEALED_SINCE}`;

/** How many events still hold personal fields in plain text (0 once sealPlainEvents has run). */
export async function countPlainEvents(db: Kysely<DB>): Promise<number> {
  const { rows } = await sql<{
    n: number | string;
  }>`select count(*) as n from events where ${storedInPlain}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The one rewrite of history the log allows (see the README, "Personal data"): events stored
 * before their fields were sealed (schema v1, personal fields in plain text) are rewritten with those
 * fields sealed, as schema v2. Nothing else in the row changes; run at start, after migrations.
 * Answers how many events it rewrote.
 */
export async function sealPlainEvents(db: Kysely<DB>): Promise<number> {
  await checkDataKey(db);
  let total = 0;
  for (;;) {
    const done = await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ global_position: string | number; type: string; data: unknown }>`
        select global_position, type, data from events
        where ${storedInPlain}
        order by global_position
        limit ${REWRITE_BATCH}
        for update`.execute(trx);
      const keys = new Map<number, Buffer | null>();
      for (const row of rows) {
        const data = (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<
          string,
          unknown
        >;
        const owner = ownerOf(row.type, data);
        let stored = data;
        if (owner !== null && hasPlainField(row.type, data)) {
          if (!keys.has(owner)) keys.set(owner, await keyForSealing(trx, owner, null));
          stored = sealFields(row.type, data, owner, keys.get(owner)!);
        }
        // Stamped as the version that sealed it, not the current one: the upcasters from there on
        // still apply when it is read.
        await sql`
          update events set data = ${JSON.stringify(stored)}::jsonb, schema_version = ${SEALED_SINCE}
          where global_position = ${row.global_position}`.execute(trx);
      }
      return rows.length;
    });
    total += done;
    if (done < REWRITE_BATCH) return total;
  }
}

/** Fails the start, clearly, when DATA_KEY is not the key the stored data keys were wrapped with. */
async function checkDataKey(db: Kysely<DB>): Promise<void> {
  const { rows } = await sql<{ user_id: number | string; wrapped_key: Buffer }>`
    select user_id, wrapped_key from user_keys limit 1`.execute(db);
  const row = rows[0];
  if (row) unwrap(Number(row.user_id), Buffer.from(row.wrapped_key));
}
