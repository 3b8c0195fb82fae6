// Text a careless (or crafty) person types: limits count characters as a person sees them, not
// UTF-16 units or code points, with a ceiling of code points so one character cannot carry a
// megabyte; names that show nothing are refused; direction controls are removed from text (and
// refused in usernames); text is stored composed (NFC), so "é" typed two ways is one name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/app.ts';
import { person, request, smallPng, type Person } from '../../helpers/world.ts';
import { createPhotoTestApp, upload, type PhotoTestApp } from '../photos/helpers.ts';

let t: PhotoTestApp;
let alice: Person;
let bob: Person;
let shop = 0;

beforeAll(async () => {
  t = await createPhotoTestApp({ worker: false });
  alice = await person(t, 'alice');
  bob = await person(t, 'bob');
});
afterAll(() => t.close());

const THUMBS = '👍🏽'; // one character: two code points, four UTF-16 units
const CAT = '😺'; // one character: one code point, two UTF-16 units

async function addCat(body: Record<string, unknown>, as: Person = alice) {
  shop += 1;
  return request(t, 'POST', '/api/cats', {
    as,
    body: { name: `Cat ${shop}`, bodega_name: `Shop ${shop}`, address: `${shop} Text Ave`, ...body },
  });
}

async function catId(): Promise<number> {
  const res = await addCat({});
  expect(res.status).toBe(201);
  return res.body.cat.id as number;
}

const review = async (id: number, comment: string, as = bob) =>
  request(t, 'POST', '/api/reviews', { as, body: { cat_id: id, rating: 4, comment } });

function expectRefused(res: { status: number; body: unknown }, field: string, message?: string) {
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ error: expect.any(String), code: 'invalid_input' });
  const details = (res.body as { details: Record<string, string> }).details;
  expect(Object.keys(details)).toContain(field);
  if (message) expect(details[field]).toBe(message);
}

describe('lengths in characters', () => {
  it('takes a review comment of 1,500 emoji and refuses one of 2,001', async () => {
    const id = await catId();
    const ok = await review(id, THUMBS.repeat(1500));
    expect(ok.status).toBe(201);
    expect(ok.body.review.comment).toBe(THUMBS.repeat(1500));
    const tooLong = await review(await catId(), CAT.repeat(2001));
    expectRefused(tooLong, 'comment', 'must be at most 2000 characters');
  });

  it('counts a name, a report comment and a caption in characters too', async () => {
    const named = await addCat({ name: THUMBS.repeat(100), description: `${'e\u0301'.repeat(2000)}` });
    expect(named.status).toBe(201);
    expectRefused(await addCat({ name: THUMBS.repeat(101) }), 'name', 'must be at most 100 characters');

    const id = named.body.cat.id as number;
    const reported = await request(t, 'POST', '/api/reports', {
      as: bob,
      body: { target_type: 'cat', target_id: id, reason: 'other', comment: THUMBS.repeat(500) },
    });
    expect(reported.status).toBe(201);
    const tooLong = await request(t, 'POST', '/api/reports', {
      as: bob,
      body: { target_type: 'cat', target_id: await catId(), reason: 'other', comment: CAT.repeat(501) },
    });
    expectRefused(tooLong, 'comment', 'must be at most 500 characters');

    const photo = await smallPng();
    const captioned = await upload(
      t,
      `/api/photos/cats/${id}/photos`,
      [
        { name: 'photo', file: photo, filename: 'cat.png', contentType: 'image/png' },
        { name: 'caption', value: THUMBS.repeat(300) },
      ],
      alice.token,
    );
    expect(captioned.status).toBe(201);
    expect(captioned.body.photo.caption).toBe(THUMBS.repeat(300));
    const longCaption = await upload(
      t,
      `/api/photos/cats/${id}/photos`,
      [
        { name: 'photo', file: photo, filename: 'cat.png', contentType: 'image/png' },
        { name: 'caption', value: CAT.repeat(301) },
      ],
      alice.token,
    );
    expectRefused(longCaption, 'caption', 'must be at most 300 characters');
  });

  it('refuses one character built of more code points than the field may hold', async () => {
    // One letter under 400 accents: a single character, 401 code points, past 4 for each of 100.
    const zalgo = `e${'\u0301'.repeat(400)}`;
    const res = await addCat({ name: zalgo });
    expectRefused(res, 'name', 'holds too many accents or joined symbols: at most 400 code points');
    // Composed, e and its first accent become one code point: 8,001 remain.
    const comment = await review(await catId(), `e${'\u0301'.repeat(8001)}`);
    expectRefused(comment, 'comment', 'holds too many accents or joined symbols: at most 8000 code points');
  });
});

describe('names that show nothing', () => {
  const invisible = {
    'zero-width spaces': '\u200B\u200B\u200B',
    'a braille blank': '\u2800',
    'a Hangul filler': '\u3164',
    'a word joiner and a byte order mark': '\u2060\uFEFF\u2060',
    'direction marks': '\u200F\u200E',
  };

  it.each(Object.entries(invisible))('refuses a cat name of %s', async (_, name) => {
    expectRefused(await addCat({ name }), 'name', 'must not be blank');
  });

  it.each(Object.entries(invisible))('refuses a bodega name of %s', async (_, name) => {
    expectRefused(await addCat({ bodega_name: name }), 'bodega_name', 'must not be blank');
    const bodega = await request(t, 'POST', '/api/bodegas', {
      as: alice,
      body: { name, address: '9 Invisible Way' },
    });
    expectRefused(bodega, 'name', 'must not be blank');
  });

  it.each(Object.entries(invisible))('refuses a username of %s', async (_, name) => {
    const res = await call(t.app, 'POST', '/api/auth/register', {
      username: `ab${name}`,
      email: 'ghost@example.test',
      password: 'meow1234',
    });
    expectRefused(
      res,
      'username',
      'Username must not contain invisible characters (such as zero-width spaces or direction marks)',
    );
  });

  it('stores optional text that shows nothing as empty', async () => {
    const res = await addCat({ breed: '\u200B', description: '\u2800\u2800' });
    expect(res.status).toBe(201);
    const cat = await request(t, 'GET', `/api/cats/${res.body.cat.id}`);
    expect(cat.body.cat).toMatchObject({ breed: '', description: '' });
  });
});

describe('direction controls', () => {
  it('removes them from names and text, so "\\u202Egnp.exe" is stored as it is shown', async () => {
    const res = await addCat({
      name: '\u202Egnp.exe',
      bodega_name: '\u2067Shop \u202Bthat\u202C turns\u2069',
      description: 'Left\u200F right\u200E \u061Cmark',
    });
    expect(res.status).toBe(201);
    expect(res.body.cat.name).toBe('gnp.exe');
    expect(res.body.bodega.name).toBe('Shop that turns');
    const cat = await request(t, 'GET', `/api/cats/${res.body.cat.id}`);
    expect(cat.body.cat.description).toBe('Left right mark');
    const commented = await review(res.body.cat.id, '\u202Ebad\u202C review');
    expect(commented.body.review.comment).toBe('bad review');
  });

  it('refuses them in a username', async () => {
    const res = await call(t.app, 'POST', '/api/auth/register', {
      username: '\u202Eexe.alice',
      email: 'rlo@example.test',
      password: 'meow1234',
    });
    expectRefused(res, 'username');
  });
});

describe('control characters', () => {
  it('keeps one-line text on one line and drops controls no reader should see', async () => {
    const res = await addCat({
      name: 'Line\nbreak\r\nCat',
      bodega_name: 'Tab\tShop\u2028here',
      breed: 'Bell\u0007 and \u001b[31mescape',
      description: 'First line\r\nsecond\tline\u0007\u009b',
    });
    expect(res.status).toBe(201);
    expect(res.body.cat.name).toBe('Line break Cat');
    expect(res.body.bodega.name).toBe('Tab Shop here');
    const cat = await request(t, 'GET', `/api/cats/${res.body.cat.id}`);
    expect(cat.body.cat.breed).toBe('Bell and [31mescape');
    expect(cat.body.cat.description).toBe('First line\nsecond\tline');
    const commented = await review(res.body.cat.id, 'Two\r\nlines\u001b[2J');
    expect(commented.body.review.comment).toBe('Two\nlines[2J');
  });

  it('refuses a name made only of line breaks and controls', async () => {
    expectRefused(await addCat({ name: '\n\r\t\u0007' }), 'name', 'must not be blank');
  });
});

describe('one form of each text (NFC)', () => {
  it('stores a name typed with its accent apart as the composed name', async () => {
    const res = await addCat({ name: 'Cafe\u0301 Cat' });
    expect(res.status).toBe(201);
    expect(res.body.cat.name).toBe('Caf\u00e9 Cat');
  });

  it('makes usernames that differ only in their form collide', async () => {
    // U+212A KELVIN SIGN is canonically the letter K: composed, the two names are one.
    const first = await call(t.app, 'POST', '/api/auth/register', {
      username: '\u212Aelvin_q',
      email: 'kelvin1@example.test',
      password: 'meow1234',
    });
    expect(first.status).toBe(201);
    expect(first.body.user.username).toBe('Kelvin_q');
    const second = await call(t.app, 'POST', '/api/auth/register', {
      username: 'kelvin_q',
      email: 'kelvin2@example.test',
      password: 'meow1234',
    });
    expect(second.status).toBe(409);
    expect(second.body.details).toEqual({ username: 'This username is already taken' });
  });

  it('finds the same bodega when its name differs only by invisible characters', async () => {
    const address = '77 Lookalike Ave';
    const first = await addCat({ bodega_name: 'Joe Deli', address });
    const second = await addCat({ bodega_name: 'Joe\u200B Deli', address });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.bodega.id).toBe(first.body.bodega.id);
  });
});
