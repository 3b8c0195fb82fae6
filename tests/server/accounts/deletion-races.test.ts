// Deleting an account while the same person's write is in flight. A photo upload locks the cat's
// photos and then, sealing its caption, the account; a deletion locks the account and then the
// photos of each cat the person has photos of. A moderator's decision holds the content it decides
// on and then, sealing its note, the account; a deletion locks the account and then the rows of the
// person's reviews. Taken in those opposite orders they deadlocked, and one of the two callers got
// an error. Whatever the timing, the write must either commit first (and what it added goes with
// the account) or be refused with a 4xx, and the deletion must succeed. The same holds for the
// person's other writes (a save, a new cat, a report, a view of a page), which once could land just
// after the deletion and leave a row naming someone who no longer exists.
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../server/accounts/passwords.ts';
import { openDatabase, type Database } from '../../../server/db/database.ts';
import { ERASED } from '../../../server/events/personal.ts';
import { nextId, readStream } from '../../../server/events/store.ts';
import { setRole } from '../../../server/moderation/roles.ts';
import { createPhotoTestApp, type PhotoTestApp } from '../photos/helpers.ts';
import { multipartForm } from '../../helpers/multipart-form.ts';
import { person, request, smallPng, type Person } from '../../helpers/world.ts';

const password = 'correct horse battery';
let t: PhotoTestApp;
let passwordHash = '';
let catId = 0;
let bodegaId = 0;

/** A person who can delete their account over HTTP. */
async function member(name: string): Promise<Person> {
  const { db } = t.services.database;
  const id = await nextId(db, 'user_ids');
  const username = `${name}${id}`;
  await db
    .insertInto('users')
    .values({ id, username, email: `${username}@example.test`, password_hash: passwordHash })
    .execute();
  return { id, username, token: t.app.issueToken({ id, username }) };
}

/** A person who can delete their account over HTTP, with a photo of the cat and a review. */
async function personWithPhoto(name: string): Promise<Person & { photoId: number }> {
  const who = await member(name);
  const first = await upload(who, 'first');
  expect(first.status).toBe(201);
  // A review too: the deletion then does more before it reaches the photos.
  const review = await request(t, 'POST', '/api/reviews', {
    as: who,
    body: { bodega_id: bodegaId, rating: 4, comment: `Kind ${name}` },
  });
  expect(review.status).toBe(201);
  return { ...who, photoId: first.body.photo.id };
}

async function upload(who: Person, caption: string) {
  const form = multipartForm([
    { name: 'photo', filename: 'cat.png', contentType: 'image/png', data: await smallPng() },
    { name: 'caption', value: caption },
  ]);
  return request(t, 'POST', `/api/photos/cats/${catId}/photos`, {
    as: who,
    body: form.payload,
    headers: form.headers,
  });
}

function deleteAccount(who: Person) {
  return request(t, 'DELETE', '/api/auth/account', { as: who, body: { password } });
}

/**
 * Both answers are ones the contract allows, and nothing of the person is left: a photo uploaded
 * before the deletion went with the account, by a PhotoDeleted in the log.
 */
async function expectClean(
  who: Person,
  uploaded: { status: number; body: unknown },
  deleted: { status: number; body: unknown },
) {
  expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
  expect([201, 401], JSON.stringify(uploaded.body)).toContain(uploaded.status);
  if (uploaded.status === 401)
    expect(uploaded.body).toMatchObject({ code: 'unauthorized', error: expect.any(String) });
  const { db } = t.services.database;
  const left = await db.selectFrom('photos').select('id').where('uploaded_by', '=', who.id).execute();
  expect(left).toEqual([]);
  if (uploaded.status === 201) {
    const photoId = (uploaded.body as { photo: { id: number } }).photo.id;
    const gone = await db
      .selectFrom('events')
      .select('type')
      .where('stream_id', '=', `photo-${photoId}`)
      .where('type', '=', 'PhotoDeleted')
      .execute();
    expect(gone).toHaveLength(1);
  }
}

/**
 * Runs `first` while another session holds the lock `hold` takes, then `second` once `first` waits
 * for it; lets go once `second` waits too (for `first`), and answers both.
 */
async function whileHeld<A, B>(
  hold: RawBuilder<unknown>,
  first: () => Promise<A>,
  second: () => Promise<B>,
): Promise<[A, B]> {
  const blocker: Database = await openDatabase({ url: t.databaseUrl!, poolSize: 2 });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holder: Promise<void> | null = null;
  try {
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    holder = blocker.db.transaction().execute(async (trx) => {
      await hold.execute(trx);
      holding();
      await released;
    });
    await held;
    /** Sessions of this test's database waiting for a lock, `n` of them, within 15 s. */
    const waiting = async (n: number) => {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(blocker.db);
        if (Number(rows[0]!.n) >= n) return;
        if (Date.now() > deadline) throw new Error(`fewer than ${n} sessions ever waited for a lock`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const a = first();
    await waiting(1);
    const b = second();
    await waiting(2);
    release();
    await holder;
    return await Promise.all([a, b]);
  } finally {
    // Whatever failed, the held lock goes, or the two requests would wait on it to the end.
    release();
    await holder?.catch(() => {});
    await blocker.close();
  }
}

beforeAll(async () => {
  t = await createPhotoTestApp({ worker: false });
  passwordHash = await hashPassword(password);
  const creator = await person(t, 'creator');
  const added = await request(t, 'POST', '/api/cats', {
    as: creator,
    body: { name: 'Biscuit', bodega_name: 'Halal Corner', address: '12 Avenue A, New York, NY' },
  });
  expect(added.status).toBe(201);
  catId = added.body.cat.id;
  bodegaId = added.body.bodega.id;
});

afterAll(async () => {
  await t?.close();
});

describe('deleting an account during its own photo upload', () => {
  // Real Postgres: a third session holds a row that one of the two needs, so that it stops right
  // after its first locks and the other is let in behind it, every time.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'an upload caught holding its locks commits first and goes with the account',
    async () => {
      const who = await personWithPhoto('held');
      const [uploaded, deleted] = await whileHeld(
        sql`select id from cats where id = ${catId} for update`,
        () => upload(who, 'during'),
        () => deleteAccount(who),
      );
      await expectClean(who, uploaded, deleted);
      expect(uploaded.status).toBe(201);
    },
    60_000,
  );

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'an upload that comes while the deletion holds the account is refused with 401',
    async () => {
      const who = await personWithPhoto('late');
      const [deleted, uploaded] = await whileHeld(
        sql`select id from users where id = ${who.id} for key share`,
        () => deleteAccount(who),
        () => upload(who, 'too late'),
      );
      await expectClean(who, uploaded, deleted);
      expect(uploaded.status).toBe(401);
    },
    60_000,
  );

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'a moderator’s decision on their own review, caught holding it, commits first',
    async () => {
      const who = await personWithPhoto('moderator');
      await setRole(t.services, who.username, 'moderator');
      const review = await t.services.database.db
        .selectFrom('reviews')
        .select('id')
        .where('user_id', '=', who.id)
        .executeTakeFirstOrThrow();
      const reviewId = Number(review.id);
      const [decided, deleted] = await whileHeld(
        sql`select id from reviews where id = ${reviewId} for update`,
        () =>
          request(t, 'POST', `/api/moderation/review/${reviewId}`, {
            as: who,
            body: { action: 'hide', note: 'Hiding my own review' },
          }),
        () => deleteAccount(who),
      );
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      const { db } = t.services.database;
      expect(await db.selectFrom('reviews').select('id').where('id', '=', reviewId).execute()).toEqual([]);
      const decisions = await readStream(db, `moderation-review-${reviewId}`, ['ModerationDecided']);
      expect(decisions.map((e) => (e.data as { note: string }).note)).toEqual([ERASED]);
    },
    60_000,
  );

  it('whatever the timing, over many rounds: the upload first or a 401, never an error', async () => {
    const started = Date.now();
    const outcomes = { 201: 0, 401: 0 };
    for (let round = 0; round < 25 && Date.now() - started < 45_000; round++) {
      const who = await personWithPhoto(`round${round}_`);
      const lead = round % 5; // ms the deletion starts after the upload, to shift where they meet
      const uploading = upload(who, `round ${round}`);
      await new Promise((r) => setTimeout(r, lead));
      const [uploaded, deleted] = await Promise.all([uploading, deleteAccount(who)]);
      await expectClean(who, uploaded, deleted);
      outcomes[uploaded.status as 201 | 401]++;
    }
    expect(outcomes[201] + outcomes[401]).toBeGreaterThanOrEqual(5);
  }, 90_000);
});

/** The person's other writes, each of which leaves a row naming them in a read table. */
const reportedReviews: number[] = [];

/** Another person's review, for one round's report. */
async function reviewToReport(round: number): Promise<number> {
  const review = await request(t, 'POST', '/api/reviews', {
    as: await member(`reviewer${round}_`),
    body: { bodega_id: bodegaId, rating: 5, comment: 'Fine cat' },
  });
  expect(review.status).toBe(201);
  return review.body.review.id;
}
const otherWrites: Record<string, (who: Person, round: number) => ReturnType<typeof request>> = {
  save: (who) => request(t, 'POST', `/api/cats/${catId}/save`, { as: who }),
  'add a cat': (who, round) =>
    request(t, 'POST', '/api/cats', {
      as: who,
      body: { name: `Late ${round}`, bodega_name: 'Halal Corner', address: '12 Avenue A, New York, NY' },
    }),
  // Of a review of its own each round: reports hide what enough people report.
  report: (who, round) =>
    request(t, 'POST', '/api/reports', {
      as: who,
      body: { target_type: 'review', target_id: reportedReviews[round]!, reason: 'other', comment: 'A loaf' },
    }),
  'save with an Idempotency-Key': (who, round) =>
    request(t, 'POST', `/api/bodegas/${bodegaId}/save`, {
      as: who,
      headers: { 'idempotency-key': `save-${round}` },
    }),
  // Its locks on the cat (declared by postReview) join the account hold's statement.
  review: (who) =>
    request(t, 'POST', '/api/reviews', { as: who, body: { cat_id: catId, rating: 4, comment: 'Late' } }),
  'view a cat': (who) => request(t, 'GET', `/api/cats/${catId}`, { as: who }),
};

/** No read table names the person any more, whatever committed first. */
async function expectNothingLeft(who: Person): Promise<void> {
  const { rows } = await sql<{ place: string }>`
    select 'saves' as place from saves where user_id = ${who.id}
    union all select 'recently_viewed' from recently_viewed where user_id = ${who.id}
    union all select 'reports' from reports where user_id = ${who.id}
    union all select 'reviews' from reviews where user_id = ${who.id}
    union all select 'idempotency_keys' from idempotency_keys where user_id = ${who.id}
    union all select 'cats' from cats where created_by = ${who.id}
    union all select 'bodegas' from bodegas where created_by = ${who.id}
    union all select 'users' from users where id = ${who.id}`.execute(t.services.database.db);
  expect(rows.map((r) => r.place)).toEqual([]);
}

describe('deleting an account during its other writes', () => {
  // A view is not a command: its row waits for nothing the deletion holds before the account row,
  // so it is only in the rounds below.
  const commands = Object.keys(otherWrites).filter((what) => what !== 'view a cat');
  it.skipIf(!process.env.TEST_DATABASE_URL).each(commands)(
    '%s, coming while the deletion holds the account, is refused with 401',
    async (what) => {
      const who = await member('late');
      const round = commands.indexOf(what);
      reportedReviews[round] ??= await reviewToReport(round);
      const [deleted, written] = await whileHeld(
        sql`select id from users where id = ${who.id} for key share`,
        () => deleteAccount(who),
        () => otherWrites[what]!(who, round),
      );
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expect(written.status, JSON.stringify(written.body)).toBe(401);
      expect(written.body).toMatchObject({ code: 'unauthorized', error: expect.any(String) });
      await expectNothingLeft(who);
    },
    60_000,
  );

  it('whatever the timing, over many rounds: each write first or a 401, never an error', async () => {
    const started = Date.now();
    let rounds = 0;
    for (let round = 0; round < 10 && Date.now() - started < 20_000; round++) {
      const who = await member(`other${round}_`);
      reportedReviews[round] = await reviewToReport(round);
      const writing = Object.entries(otherWrites).map(async ([what, write]) => {
        const answer = await write(who, round);
        return { what, ...answer };
      });
      await new Promise((r) => setTimeout(r, round % 4));
      const [deleted, ...answers] = await Promise.all([deleteAccount(who), ...writing]);
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      for (const { what, status, body } of answers) {
        expect([200, 201, 401], `${what}: ${status} ${JSON.stringify(body)}`).toContain(status);
      }
      await expectNothingLeft(who);
      rounds++;
    }
    expect(rounds).toBeGreaterThanOrEqual(5);
  }, 90_000);
});
