// A small catalogue built through the public API, for suites that probe every endpoint at once:
// people with tokens, a bodega and a cat added by their creator, a photo of each by an uploader and
// a review of each by a reviewer.
import type { InjectOptions } from 'fastify';
import sharp from 'sharp';
import { nextId } from '../../server/events/store.ts';
import type { TestApp } from './app.ts';
import { multipartForm } from './multipart-form.ts';
import type { Json } from './json.ts';

export type Person = { id: number; username: string; token: string };

export type World = {
  catId: number;
  bodegaId: number;
  catPhotoId: number;
  bodegaPhotoId: number;
  catReviewId: number;
  bodegaReviewId: number;
};

/** A signed-up person. Inserted directly: the password hash is deliberately slow and not under test here. */
export async function person(t: Pick<TestApp, 'services' | 'app'>, name: string): Promise<Person> {
  const { db } = t.services.database;
  const id = await nextId(db, 'user_ids');
  const username = `${name}${id}`;
  await db
    .insertInto('users')
    .values({ id, username, email: `${username}@example.test`, password_hash: 'not-a-usable-hash' })
    .execute();
  return { id, username, token: t.app.issueToken({ id, username }) };
}

let tinyPng: Buffer | null = null;

/** A real 8x8 PNG (the upload route decides the type from the bytes). */
export async function smallPng(): Promise<Buffer> {
  tinyPng ??= await sharp({ create: { width: 8, height: 8, channels: 3, background: '#d2691e' } })
    .png()
    .toBuffer();
  return tinyPng;
}

export async function request(
  t: TestApp,
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; as?: Person | null; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.as) headers.authorization = `Bearer ${options.as.token}`;
  const res = await t.app.inject({
    method,
    url,
    headers,
    payload: options.body === undefined ? undefined : (options.body as InjectOptions['payload']),
  });
  let body: Json = null;
  try {
    body = res.json();
  } catch {}
  return { status: res.statusCode, body, headers: res.headers };
}

async function expectCreated<T>(
  what: string,
  res: { status: number; body: Json },
  pick: (b: Json) => T,
): Promise<T> {
  if (res.status !== 201) throw new Error(`could not add ${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return pick(res.body);
}

export async function uploadPhoto(
  t: TestApp,
  folder: 'cats' | 'bodegas',
  id: number,
  as: Person,
): Promise<number> {
  const form = multipartForm([
    { name: 'photo', filename: 'cat.png', contentType: 'image/png', data: await smallPng() },
  ]);
  const res = await request(t, 'POST', `/api/photos/${folder}/${id}/photos`, {
    as,
    body: form.payload,
    headers: form.headers,
  });
  return expectCreated(`a photo of ${folder} ${id}`, res, (b) => b.photo.id as number);
}

export type Roles = { creator: Person; uploader: Person; reviewer: Person };

/** Adds a cat (and with it a bodega) as `creator`, a photo of each as `uploader`, a review of each as `reviewer`. */
export async function buildWorld(t: TestApp, { creator, uploader, reviewer }: Roles): Promise<World> {
  const serial = await nextId(t.services.database.db, 'cat_ids');
  const added = await request(t, 'POST', '/api/cats', {
    as: creator,
    body: {
      name: `Whiskers ${serial}`,
      bodega_name: `Corner Deli ${serial}`,
      address: `${serial} Broadway, New York, NY`,
      breed: 'Tabby',
      personality: 'Curious',
      latitude: 40.75,
      longitude: -73.98,
    },
  });
  const { catId, bodegaId } = await expectCreated('a cat', added, (b) => ({
    catId: b.cat.id as number,
    bodegaId: b.bodega.id as number,
  }));
  const catPhotoId = await uploadPhoto(t, 'cats', catId, uploader);
  const bodegaPhotoId = await uploadPhoto(t, 'bodegas', bodegaId, uploader);
  const review = (target: Record<string, number>) =>
    request(t, 'POST', '/api/reviews', { as: reviewer, body: { ...target, rating: 4, comment: 'Friendly' } });
  const catReviewId = await expectCreated(
    'a cat review',
    await review({ cat_id: catId }),
    (b) => b.review.id,
  );
  const bodegaReviewId = await expectCreated(
    'a bodega review',
    await review({ bodega_id: bodegaId }),
    (b) => b.review.id,
  );
  return { catId, bodegaId, catPhotoId, bodegaPhotoId, catReviewId, bodegaReviewId };
}
