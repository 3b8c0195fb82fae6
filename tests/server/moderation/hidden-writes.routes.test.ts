// Writes on hidden content. To everyone but its creator and moderators, a cat or bodega moderation
// hid (a cat also through its bodega), a hidden review and a hidden photo are not there: a review,
// save, upload, report or primary switch on them answers exactly as for one that does not exist.
// The creator and moderators still write; a person's own save and own review can still go.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '../../../server/moderation/roles.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { multipartForm } from '../../helpers/multipart-form.ts';
import { person, request, smallPng, uploadPhoto, type Person } from '../../helpers/world.ts';

let t: TestApp;
let creator: Person;
let moderator: Person;
let stranger: Person;
let saver: Person;
let reviewer: Person;
let uploader: Person;

const MISSING = 987654321;

beforeAll(async () => {
  t = await createTestApp();
  creator = await person(t, 'creator');
  moderator = await person(t, 'moderator');
  stranger = await person(t, 'stranger');
  saver = await person(t, 'saver');
  reviewer = await person(t, 'reviewer');
  uploader = await person(t, 'uploader');
  await setRole(t.services, moderator.username, 'moderator');
});

afterAll(async () => {
  await t?.close();
});

type Kind = 'cat' | 'bodega';
const folder = (kind: Kind) => (kind === 'cat' ? 'cats' : 'bodegas');

let serial = 0;

/** A cat with a bodega of its own, both added by `creator`. */
async function addCat() {
  const n = ++serial;
  const res = await request(t, 'POST', '/api/cats', {
    as: creator,
    body: {
      name: `Hush ${n}`,
      bodega_name: `Quiet Deli ${n}`,
      address: `${n + 20} Pine Street, New York, NY`,
    },
  });
  expect(res.status).toBe(201);
  return { cat: res.body.cat.id as number, bodega: res.body.bodega.id as number };
}

function decide(type: string, id: number, action: 'hide' | 'restore') {
  return request(t, 'POST', `/api/moderation/${type}/${id}`, { as: moderator, body: { action } });
}

async function upload(kind: Kind, id: number, as: Person) {
  const form = multipartForm([
    { name: 'photo', filename: 'cat.png', contentType: 'image/png', data: await smallPng() },
  ]);
  return request(t, 'POST', `/api/photos/${folder(kind)}/${id}/photos`, {
    as,
    body: form.payload,
    headers: form.headers,
  });
}

const review = (kind: Kind, id: number, as: Person) =>
  request(t, 'POST', '/api/reviews', { as, body: { [`${kind}_id`]: id, rating: 3, comment: 'Hm' } });
const save = (kind: Kind, id: number, as: Person, method: 'POST' | 'DELETE' = 'POST') =>
  request(t, method, `/api/${folder(kind)}/${id}/save`, { as });
const report = (type: string, id: number, as: Person) =>
  request(t, 'POST', '/api/reports', { as, body: { target_type: type, target_id: id, reason: 'spam' } });
const makePrimary = (kind: Kind, id: number, photoId: number, as: Person) =>
  request(t, 'PUT', `/api/photos/${folder(kind)}/${id}/photos/${photoId}/primary`, { as });

/** Status and body only: what tells one answer from another. */
const answer = (res: { status: number; body: unknown }) => ({ status: res.status, body: res.body });

// Each case: which item is written to, and how it comes to be hidden.
const CASES = [
  { name: 'a cat hidden itself', kind: 'cat', hide: 'cat' },
  { name: 'a cat hidden with its bodega', kind: 'cat', hide: 'bodega' },
  { name: 'a hidden bodega', kind: 'bodega', hide: 'bodega' },
] as const;

describe.each(CASES)('writes on $name', ({ kind, hide }) => {
  it('answer a fourth person exactly as for a missing one; its creator and moderators still write', async () => {
    const ids = await addCat();
    const id = ids[kind];
    // Before it is hidden: a save, a review and a second photo (of the creator's, not primary).
    expect((await save(kind, id, saver)).status).toBe(200);
    const own = await review(kind, id, reviewer);
    expect(own.status).toBe(201);
    await uploadPhoto(t, folder(kind), id, creator);
    const second = await uploadPhoto(t, folder(kind), id, creator);
    expect((await decide(hide, ids[hide], 'hide')).status).toBe(200);

    const missing = {
      review: answer(await review(kind, MISSING, stranger)),
      save: answer(await save(kind, MISSING, stranger)),
      unsave: answer(await save(kind, MISSING, stranger, 'DELETE')),
      upload: answer(await upload(kind, MISSING, stranger)),
      report: answer(await report(kind, MISSING, stranger)),
      primary: answer(await makePrimary(kind, MISSING, second, creator)),
    };
    const notFound = { status: 404, body: { error: `${kind === 'cat' ? 'Cat' : 'Bodega'} not found` } };
    for (const [write, res] of Object.entries(missing)) expect(res, write).toMatchObject(notFound);

    expect(answer(await review(kind, id, stranger))).toEqual(missing.review);
    expect(answer(await save(kind, id, stranger))).toEqual(missing.save);
    // Unsaving what they never saved tells a stranger no more than saving does.
    expect(answer(await save(kind, id, stranger, 'DELETE'))).toEqual(missing.unsave);
    expect(answer(await upload(kind, id, stranger))).toEqual(missing.upload);
    expect(answer(await report(kind, id, stranger))).toEqual(missing.report);
    expect(answer(await makePrimary(kind, id, second, stranger))).toEqual(missing.primary);
    // Someone who reviewed it before cannot post again: still 404, not "already reviewed".
    expect(answer(await review(kind, id, reviewer))).toEqual(missing.review);

    // Its creator and moderators see it, and still write.
    expect((await review(kind, id, creator)).status).toBe(201);
    expect((await save(kind, id, creator)).status).toBe(200);
    expect((await upload(kind, id, creator)).status).toBe(201);
    expect((await makePrimary(kind, id, second, creator)).status).toBe(200);
    expect((await review(kind, id, moderator)).status).toBe(201);
    expect((await save(kind, id, moderator)).status).toBe(200);
    expect((await upload(kind, id, moderator)).status).toBe(201);
    expect((await report(kind, id, moderator)).status).toBe(201);

    // What people had put there before it was hidden, they can still take away.
    const unsaved = await save(kind, id, saver, 'DELETE');
    expect(answer(unsaved)).toEqual({ status: 200, body: { saved: false } });
    const deleted = await request(t, 'DELETE', `/api/reviews/${own.body.review.id}`, { as: reviewer });
    expect(deleted.status).toBe(200);

    // Restored, it takes everyone's writes again.
    expect((await decide(hide, ids[hide], 'restore')).status).toBe(200);
    expect((await review(kind, id, stranger)).status).toBe(201);
    expect((await save(kind, id, stranger)).status).toBe(200);
    expect((await upload(kind, id, stranger)).status).toBe(201);
  });
});

describe('hidden reviews and photos', () => {
  it('a hidden review, or one of a hidden cat, cannot be reported by who cannot see it', async () => {
    const ids = await addCat();
    const hiddenItself = await review('cat', ids.cat, reviewer);
    const other = await addCat();
    const ofHiddenCat = await review('cat', other.cat, reviewer);
    expect((await decide('review', hiddenItself.body.review.id, 'hide')).status).toBe(200);
    expect((await decide('cat', other.cat, 'hide')).status).toBe(200);

    const missing = answer(await report('review', MISSING, stranger));
    expect(missing).toMatchObject({ status: 404, body: { error: 'Review not found' } });
    expect(answer(await report('review', hiddenItself.body.review.id, stranger))).toEqual(missing);
    expect(answer(await report('review', ofHiddenCat.body.review.id, stranger))).toEqual(missing);
    // The cat's creator sees the reviews of their hidden cat; moderators see everything.
    expect((await report('review', ofHiddenCat.body.review.id, creator)).status).toBe(201);
    expect((await report('review', hiddenItself.body.review.id, moderator)).status).toBe(201);
  });

  it('a hidden photo cannot be reported or made primary by who cannot see it', async () => {
    const ids = await addCat();
    await uploadPhoto(t, 'cats', ids.cat, creator);
    const photoId = await uploadPhoto(t, 'cats', ids.cat, uploader);
    expect((await decide('photo', photoId, 'hide')).status).toBe(200);

    const missingReport = answer(await report('photo', MISSING, stranger));
    expect(missingReport).toMatchObject({ status: 404, body: { error: 'Photo not found' } });
    expect(answer(await report('photo', photoId, stranger))).toEqual(missingReport);
    // The cat's creator did not upload it, so to them the hidden photo is not there either.
    const missingPhoto = answer(await makePrimary('cat', ids.cat, MISSING, creator));
    expect(missingPhoto).toMatchObject({ status: 404, body: { error: 'Photo not found' } });
    expect(answer(await makePrimary('cat', ids.cat, photoId, creator))).toEqual(missingPhoto);
    expect((await report('photo', photoId, moderator)).status).toBe(201);
  });
});
