// Crypto-shredding of personal fields: sealed on append, opened on read, [erased] once the author's
// key is gone or under any other key; events written before sealing existed (schema v1) read the
// same and are rewritten sealed by the start step, leaving no plain text in the log.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteAccount } from '../../../server/accounts/deletion.ts';
import { personalData } from '../../../server/personal-data.ts';
import { loadConfig } from '../../../server/config.ts';
import {
  countPlainEvents,
  DataKeyMismatchError,
  ERASED,
  openEvents,
  openField,
  sealField,
  sealPlainEvents,
  useDataKey,
} from '../../../server/events/personal.ts';
import {
  createEventStore,
  nextId,
  readStream,
  toRecordedEvent,
  writeTransaction,
} from '../../../server/events/store.ts';
import { streamIds, type RecordedEvent } from '../../../server/events/types.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/storage.ts';

let testDb: TestDatabase;
const store = createEventStore([]);
const testKey = loadConfig({ NODE_ENV: 'test' }).dataKey;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(async () => {
  useDataKey(testKey);
  await testDb?.drop();
});

async function newUser(): Promise<number> {
  const { db } = testDb.database;
  const id = await nextId(db, 'user_ids');
  await db
    .insertInto('users')
    .values({ id, username: `u${id}`, email: `u${id}@example.test`, password_hash: 'x' })
    .execute();
  return id;
}

async function postReview(userId: number, comment: string): Promise<number> {
  const { db } = testDb.database;
  const reviewId = await nextId(db, 'review_ids');
  await store.append(db, streamIds.review(reviewId), 0, [
    {
      type: 'ReviewPosted',
      data: { review_id: reviewId, target_type: 'cat', target_id: 1, user_id: userId, rating: 4, comment },
    },
  ]);
  return reviewId;
}

/** Every event, opened: read directly, as consumers' horizon may lag on a shared server. */
async function readAll(): Promise<RecordedEvent[]> {
  const { db } = testDb.database;
  const { rows } = await sql<Parameters<typeof toRecordedEvent>[0]>`
    select global_position, stream_id, stream_version, type, schema_version, data, metadata,
           transaction_id::text as transaction_id, recorded_at
    from events order by global_position`.execute(db);
  return openEvents(db, rows.map(toRecordedEvent));
}

async function storedText(): Promise<string> {
  const { rows } = await sql<{
    t: string | null;
  }>`select string_agg(data::text, ' ') as t from events`.execute(testDb.database.db);
  return rows[0]?.t ?? '';
}

describe('sealing a field', () => {
  it('opens under the key and owner it was sealed for', () => {
    const key = randomBytes(32);
    const sealed = sealField(key, 7, 'Loves the bread aisle');
    expect(JSON.stringify(sealed)).not.toContain('bread');
    expect(openField(key, 7, sealed)).toBe('Loves the bread aisle');
  });

  it('reads as [erased] under another key, for another owner, or with no key at all', () => {
    const key = randomBytes(32);
    const sealed = sealField(key, 7, 'secret');
    expect(openField(randomBytes(32), 7, sealed)).toBe(ERASED);
    expect(openField(key, 8, sealed)).toBe(ERASED);
    expect(openField(undefined, 7, sealed)).toBe(ERASED);
    expect(openField(key, 7, { sealed: 'AAAA' })).toBe(ERASED);
  });
});

describe('the log', () => {
  it('stores personal fields sealed and gives them back opened', async () => {
    const userId = await newUser();
    const reviewId = await postReview(userId, 'Round trip meow 41');
    expect(await storedText()).not.toContain('Round trip meow 41');
    const [posted] = await readStream(testDb.database.db, streamIds.review(reviewId), ['ReviewPosted']);
    expect((posted as RecordedEvent<'ReviewPosted'>).data.comment).toBe('Round trip meow 41');
  });

  it('reads [erased] once the author’s key is destroyed, and refuses writes by a deleted author', async () => {
    const userId = await newUser();
    const reviewId = await postReview(userId, 'Soon forgotten 42');
    await writeTransaction(testDb.database.db, (tx) =>
      deleteAccount(tx, store, { userId, metadata: {} }, personalData),
    );
    const [posted] = await readStream(testDb.database.db, streamIds.review(reviewId), ['ReviewPosted']);
    expect((posted as RecordedEvent<'ReviewPosted'>).data.comment).toBe(ERASED);
    await expect(postReview(userId, 'From beyond')).rejects.toMatchObject({ statusCode: 401 });
  });

  it('fails loudly, rather than erasing everything, under another DATA_KEY', async () => {
    const userId = await newUser();
    await postReview(userId, 'Wrong master 43');
    useDataKey(randomBytes(32));
    try {
      await expect(readAll()).rejects.toBeInstanceOf(DataKeyMismatchError);
      await expect(sealPlainEvents(testDb.database.db)).rejects.toBeInstanceOf(DataKeyMismatchError);
    } finally {
      useDataKey(testKey);
    }
  });
});

describe('events stored before sealing (schema v1)', () => {
  it('are upcast on read, then rewritten sealed so no plain text stays in the log', async () => {
    const { db } = testDb.database;
    const author = await newUser();
    const gone = await newUser();
    await writeTransaction(db, (tx) =>
      deleteAccount(tx, store, { userId: gone, metadata: {} }, personalData),
    );
    const v1 = [
      [
        'review-9001',
        'ReviewPosted',
        {
          review_id: 9001,
          target_type: 'cat',
          target_id: 1,
          user_id: author,
          rating: 5,
          comment: 'Plain old review 44',
        },
      ],
      [
        'photo-9002',
        'PhotoUploaded',
        {
          photo_id: 9002,
          target_type: 'cat',
          target_id: 1,
          uploaded_by: author,
          filename: 'f',
          original_path: 'originals/f.png',
          mime_type: 'image/png',
          caption: 'Plain old caption 45',
          make_primary: false,
        },
      ],
      [
        'moderation-cat-1',
        'ContentReported',
        {
          report_id: 9003,
          target_type: 'cat',
          target_id: 1,
          user_id: author,
          reason: 'other',
          comment: 'Plain old report 46',
        },
      ],
      [
        'moderation-cat-2',
        'ModerationDecided',
        {
          target_type: 'cat',
          target_id: 2,
          action: 'dismiss',
          moderator_id: author,
          note: 'Plain old note 48',
        },
      ],
      [
        'review-9004',
        'ReviewPosted',
        {
          review_id: 9004,
          target_type: 'cat',
          target_id: 1,
          user_id: gone,
          rating: 1,
          comment: 'Author long gone 47',
        },
      ],
    ] as const;
    for (const [stream, type, data] of v1) {
      await sql`
        insert into events (stream_id, stream_version, type, schema_version, data, metadata)
        values (${stream}, 1, ${type}, 1, ${JSON.stringify(data)}::jsonb, '{}'::jsonb)`.execute(db);
    }
    const before = await readAll();
    const opened = (type: string, id: number) =>
      before.find((e) => e.type === type && Object.values(e.data).includes(id))!.data as Record<
        string,
        unknown
      >;
    expect(opened('ReviewPosted', 9001).comment).toBe('Plain old review 44');
    expect(opened('PhotoUploaded', 9002).caption).toBe('Plain old caption 45');
    expect(await storedText()).toContain('Plain old review 44');

    expect(opened('ModerationDecided', author).note).toBe('Plain old note 48');
    expect(await countPlainEvents(db)).toBe(5);
    expect(await sealPlainEvents(db)).toBe(5);
    expect(await countPlainEvents(db)).toBe(0);
    const text = await storedText();
    for (const plain of [
      'Plain old review 44',
      'Plain old caption 45',
      'Plain old report 46',
      'Plain old note 48',
      'Author long gone 47',
    ])
      expect(text).not.toContain(plain);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from events
      where type in ('ReviewPosted', 'PhotoUploaded', 'ContentReported', 'ModerationDecided')
        and schema_version <> 2`.execute(db);
    expect(rows[0]!.n).toBe(0);

    const after = await readAll();
    const reread = (type: string, id: number) =>
      after.find((e) => e.type === type && Object.values(e.data).includes(id))!.data as Record<
        string,
        unknown
      >;
    expect(reread('ReviewPosted', 9001).comment).toBe('Plain old review 44');
    expect(reread('PhotoUploaded', 9002).caption).toBe('Plain old caption 45');
    expect(reread('ContentReported', 9003).comment).toBe('Plain old report 46');
    expect(reread('ModerationDecided', author).note).toBe('Plain old note 48');
    expect(reread('ReviewPosted', 9004).comment).toBe(ERASED);
    expect(await sealPlainEvents(db)).toBe(0);
  });
});
