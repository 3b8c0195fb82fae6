// Deleting an account through HTTP: the person's reviews, photos (and their files), saves, recently
// viewed and reports go, what they added stays without an owner, ratings are recomputed, and then
// no column of any table, the event log included, holds their name, email, password hash or any
// text they wrote (their notes as a moderator included), before and after a replay of every
// projection. Their token is dead and their name and address can be registered again.
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../../server/db/schema.ts';
import { projections } from '../../../server/domains.ts';
import { ERASED } from '../../../server/events/personal.ts';
import { replay } from '../../../server/events/replay.ts';
import { readStream } from '../../../server/events/store.ts';
import { setRole } from '../../../server/moderation/roles.ts';
import { variantKey } from '../../../server/photos/objects.ts';
import { createPhotoTestApp, type PhotoTestApp } from '../photos/helpers.ts';
import { multipartForm } from '../../helpers/multipart-form.ts';
import { person, request, smallPng, type Person } from '../../helpers/world.ts';
import { connectStream, listenOnLoopback } from '../live/stream-client.ts';

let t: PhotoTestApp;
let other: Person;
let leaver: Person;
const password = 'correct horse battery';
const tag = `Q${Date.now().toString(36)}`;
const secrets = {
  username: `leaver_${tag}`.slice(0, 30),
  email: `leaver.${tag}@example.test`,
  catReview: `Purrfectly grumpy ${tag} reviewcat`,
  bodegaReview: `Best sandwiches ${tag} reviewbodega`,
  caption: `Napping on rice ${tag} captioned`,
  reportComment: `Not really a cat ${tag} reportcomment`,
  moderatorNote: `Asked the owner ${tag} moderatornote`,
};
let passwordHash = '';
let catId = 0;
let bodegaId = 0;
let ownCatId = 0;
let ownBodegaId = 0;
let photoFiles: string[] = [];
let cursorBefore = '';
let streamBase = '';

/** Every (table, column) of the database whose text holds one of the needles, events included. */
async function findNeedles(db: Kysely<DB>, needles: string[]): Promise<string[]> {
  const { rows: columns } = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select c.table_name, c.column_name, c.data_type
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(db);
  expect(columns.some((c) => c.table_name === 'events' && c.column_name === 'data')).toBe(true);
  const found: string[] = [];
  for (const column of columns) {
    const ref = sql.ref(`${column.table_name}.${column.column_name}`);
    const asText = column.data_type === 'bytea' ? sql`encode(${ref}, 'escape')` : sql`${ref}::text`;
    for (const needle of needles) {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from ${sql.table(column.table_name)}
        where strpos(lower(${asText}), lower(${needle})) > 0`.execute(db);
      if (Number(rows[0]!.n) > 0) found.push(`${column.table_name}.${column.column_name}: ${needle}`);
    }
  }
  return found;
}

function needles(): string[] {
  return [...Object.values(secrets), passwordHash];
}

async function json(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  as: Person | null,
  body?: unknown,
) {
  return request(t, method, url, { as, body });
}

beforeAll(async () => {
  t = await createPhotoTestApp();
  other = await person(t, 'other');
  const registered = await json('POST', '/api/auth/register', null, {
    username: secrets.username,
    email: secrets.email,
    password,
  });
  expect(registered.status).toBe(201);
  leaver = { id: registered.body.user.id, username: secrets.username, token: registered.body.access_token };
  const { db } = t.services.database;
  passwordHash = (
    await db.selectFrom('users').select('password_hash').where('id', '=', leaver.id).executeTakeFirstOrThrow()
  ).password_hash;

  const added = await json('POST', '/api/cats', other, {
    name: `Biscuit ${tag}`,
    bodega_name: `Halal Corner ${tag}`,
    address: '12 Avenue A, New York, NY',
    latitude: 40.72,
    longitude: -73.98,
  });
  catId = added.body.cat.id;
  bodegaId = added.body.bodega.id;
  const own = await json('POST', '/api/cats', leaver, {
    name: `Mittens ${tag}`,
    bodega_name: `Leaver Deli ${tag}`,
    address: '99 Avenue B, New York, NY',
  });
  ownCatId = own.body.cat.id;
  ownBodegaId = own.body.bodega.id;

  streamBase = await listenOnLoopback(t.app);
  const hello = await connectStream(streamBase);
  await hello.waitFor((m) => m.some((x) => x.type === 'hello'));
  cursorBefore = hello.messages.find((m) => m.type === 'hello')!.cursor!;
  await hello.close();

  // A review by someone else stays and makes the rating after deletion.
  expect(
    (await json('POST', '/api/reviews', other, { cat_id: catId, rating: 2, comment: 'Fine' })).status,
  ).toBe(201);
  const review = await request(t, 'POST', '/api/reviews', {
    as: leaver,
    body: { cat_id: catId, rating: 5, comment: secrets.catReview },
    headers: { 'idempotency-key': `review-${tag}` },
  });
  expect(review.status).toBe(201);
  expect(
    (
      await json('POST', '/api/reviews', leaver, {
        bodega_id: bodegaId,
        rating: 4,
        comment: secrets.bodegaReview,
      })
    ).status,
  ).toBe(201);
  const form = multipartForm([
    { name: 'photo', filename: 'cat.png', contentType: 'image/png', data: await smallPng() },
    { name: 'caption', value: secrets.caption },
  ]);
  const photo = await request(t, 'POST', `/api/photos/cats/${catId}/photos`, {
    as: leaver,
    body: form.payload,
    headers: form.headers,
  });
  expect(photo.status).toBe(201);
  expect((await json('POST', `/api/cats/${catId}/save`, leaver)).status).toBe(200);
  expect((await json('POST', `/api/bodegas/${bodegaId}/save`, leaver)).status).toBe(200);
  expect((await json('GET', `/api/cats/${catId}`, leaver)).status).toBe(200);
  expect(
    (
      await json('POST', '/api/reports', leaver, {
        target_type: 'cat',
        target_id: catId,
        reason: 'not_a_cat',
        comment: secrets.reportComment,
      })
    ).status,
  ).toBe(201);
  // The person is a moderator too, and leaves a note on a decision.
  await setRole(t.services, secrets.username, 'moderator');
  const decided = await json('POST', `/api/moderation/cat/${catId}`, leaver, {
    action: 'dismiss',
    note: secrets.moderatorNote,
  });
  expect(decided.status).toBe(200);
  await t.settle();

  const row = await db
    .selectFrom('photos')
    .select(['filename', 'original_path', 'status'])
    .where('id', '=', photo.body.photo.id)
    .executeTakeFirstOrThrow();
  expect(row.status).toBe('ready');
  photoFiles = [
    path.join(t.uploadDir, variantKey('cat', row.filename, 'thumb')),
    path.join(t.uploadDir, variantKey('cat', row.filename, 'large')),
    path.join(t.uploadDir, 'originals', path.basename(row.original_path)),
  ];
  // The variants exist (the original is removed once processed, as always).
  expect(photoFiles.slice(0, 2).every((f) => fs.existsSync(f))).toBe(true);
  expect((await json('GET', `/api/cats/${catId}`, null)).body.cat).toMatchObject({
    rating: 3.5,
    review_count: 2,
  });
});

afterAll(async () => {
  await t?.close();
});

describe('DELETE /api/auth/account', () => {
  it('answers 400 in the contract shape without a password, and 401 signed out', async () => {
    const missing = await json('DELETE', '/api/auth/account', leaver, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'invalid_input', error: expect.any(String) });
    const extra = await json('DELETE', '/api/auth/account', leaver, { password, also: 1 });
    expect(extra.status).toBe(400);
    expect((await json('DELETE', '/api/auth/account', null, { password })).status).toBe(401);
  });

  it('answers 403 for a wrong password and deletes nothing', async () => {
    const res = await json('DELETE', '/api/auth/account', leaver, { password: 'not my password' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'forbidden', error: 'Password is incorrect' });
    expect((await json('GET', '/api/auth/profile', leaver)).status).toBe(200);
  });

  it('the person’s text is stored sealed in the log, never in plain text', async () => {
    const found = await findNeedles(t.services.database.db, [
      secrets.catReview,
      secrets.bodegaReview,
      secrets.caption,
      secrets.reportComment,
      secrets.moderatorNote,
    ]);
    expect(found.filter((f) => f.startsWith('events.'))).toEqual([]);
    expect(found).toContain(`reviews.comment: ${secrets.catReview}`);
  });

  it('deletes the account and leaves no trace of the person in any table, before and after a replay', async () => {
    const { db } = t.services.database;
    const knownAddresses = async () =>
      Number(
        (await sql<{ n: number }>`select count(*)::int as n from login_known_addresses`.execute(db)).rows[0]!
          .n,
      );
    const knownBefore = await knownAddresses();
    // Signing in by username and by email leaves each name a known address.
    for (const name of [secrets.username, secrets.email])
      expect((await json('POST', '/api/auth/login', null, { username: name, password })).status).toBe(200);
    expect(await knownAddresses()).toBe(knownBefore + 2);
    const res = await json('DELETE', '/api/auth/account', leaver, { password });
    expect(res.status).toBe(200);
    expect(await knownAddresses()).toBe(knownBefore);
    await t.settle();
    expect(await findNeedles(db, needles())).toEqual([]);

    const verified = await replay(t.services.database, projections, { verify: true });
    expect(verified.differences.filter((d) => !d.same)).toEqual([]);
    await replay(t.services.database, projections, { force: true });
    expect(await findNeedles(db, needles())).toEqual([]);
    const left = await sql<{ n: number }>`
      select (select count(*) from reviews where user_id = ${leaver.id})
           + (select count(*) from photos where uploaded_by = ${leaver.id})
           + (select count(*) from saves where user_id = ${leaver.id})
           + (select count(*) from recently_viewed where user_id = ${leaver.id})
           + (select count(*) from reports where user_id = ${leaver.id})
           + (select count(*) from user_keys where user_id = ${leaver.id}) as n`.execute(db);
    expect(Number(left.rows[0]!.n)).toBe(0);
    // The decision stays in the log; its note can never be read again.
    const decisions = await readStream(db, `moderation-cat-${catId}`, ['ModerationDecided']);
    expect(decisions.map((e) => e.data)).toEqual([
      expect.objectContaining({ moderator_id: leaver.id, action: 'dismiss', note: ERASED }),
    ]);
  });

  it('recomputes the ratings the person’s reviews counted in', async () => {
    expect((await json('GET', `/api/cats/${catId}`, null)).body.cat).toMatchObject({
      rating: 2,
      review_count: 1,
    });
    expect((await json('GET', `/api/bodegas/${bodegaId}`, null)).body.bodega).toMatchObject({
      rating: 0,
      review_count: 0,
    });
    const reviews = await json('GET', `/api/reviews/cat/${catId}`, null);
    expect(reviews.body.reviews.map((r: { comment: string }) => r.comment)).toEqual(['Fine']);
  });

  it('keeps what the person added, owned by no one', async () => {
    const cat = await json('GET', `/api/cats/${ownCatId}`, null);
    expect(cat.status).toBe(200);
    expect(cat.body.cat).toMatchObject({ created_by: null, creator_username: null });
    const bodega = await json('GET', `/api/bodegas/${ownBodegaId}`, null);
    expect(bodega.body.bodega).toMatchObject({ created_by: null, creator_username: null });
  });

  it('removes the photo files: originals and every size', async () => {
    expect(photoFiles.filter((f) => fs.existsSync(f))).toEqual([]);
    expect((await json('GET', `/api/cats/${catId}`, null)).body.cat.photos).toEqual([]);
  });

  it('rejects the old token with 401', async () => {
    expect((await json('GET', '/api/auth/profile', leaver)).status).toBe(401);
    expect((await json('POST', '/api/reviews', leaver, { cat_id: ownCatId, rating: 3 })).status).toBe(401);
  });

  it('never replays the person’s reviews or photos to a reconnecting live client', async () => {
    const client = await connectStream(streamBase, `?after=${cursorBefore}`);
    try {
      // The photo's deletion comes after everything the person did: by then all of it was replayed.
      await client.waitFor((m) => m.some((x) => x.type === 'photo.deleted'));
      expect(client.events().filter((m) => m.type === 'photo.ready')).toEqual([]);
      const raw = client.raw.join('\n');
      for (const secret of Object.values(secrets)) expect(raw).not.toContain(secret);
      const reviews = client.events().filter((m) => m.type === 'review.posted');
      expect(reviews.map((m) => (m.data as { comment: string }).comment)).toEqual(['Fine']);
    } finally {
      await client.close();
    }
  });

  it('lets the username and email be registered again', async () => {
    const res = await json('POST', '/api/auth/register', null, {
      username: secrets.username,
      email: secrets.email,
      password: 'a new password',
    });
    expect(res.status).toBe(201);
    expect(res.body.user.id).not.toBe(leaver.id);
  });
});
