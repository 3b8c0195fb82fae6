// Givens for review tests: people with tokens, and catalogue entries appended as events.
import type { TestApp } from '../../helpers/app.ts';
import { nextId } from '../../../server/events/store.ts';
import { streamIds } from '../../../server/events/types.ts';
import { appendBodega, appendCat } from '../../helpers/catalogue-events.ts';

export type Person = { id: number; username: string; token: string };

export async function givenPerson(t: TestApp, name = 'user'): Promise<Person> {
  const db = t.services.database.db;
  const id = await nextId(db, 'user_ids');
  const username = `${name}${id}`;
  await db
    .insertInto('users')
    .values({ id, username, email: `${username}@example.com`, password_hash: 'not-a-real-hash' })
    .execute();
  return { id, username, token: t.app.issueToken({ id, username }) };
}

export async function givenBodega(t: TestApp, name = 'Corner Deli'): Promise<number> {
  return appendBodega(t.services, { name, latitude: 40.7, longitude: -73.99 });
}

export async function givenCat(t: TestApp, bodegaId?: number, name = 'Whiskers'): Promise<number> {
  const bodega = bodegaId ?? (await givenBodega(t));
  return appendCat(t.services, bodega, { name });
}

export async function deleteCat(t: TestApp, catId: number): Promise<void> {
  const db = t.services.database.db;
  const cat = await db
    .selectFrom('cats')
    .select('bodega_id')
    .where('id', '=', catId)
    .executeTakeFirstOrThrow();
  await t.services.store.append(db, streamIds.cat(catId), 'any', [
    { type: 'CatDeleted', data: { cat_id: catId, bodega_id: Number(cat.bodega_id) } },
  ]);
}

export async function deleteBodega(t: TestApp, bodegaId: number): Promise<void> {
  const db = t.services.database.db;
  const cats = await db.selectFrom('cats').select('id').where('bodega_id', '=', bodegaId).execute();
  for (const cat of cats) await deleteCat(t, Number(cat.id));
  await t.services.store.append(db, streamIds.bodega(bodegaId), 'any', [
    { type: 'BodegaDeleted', data: { bodega_id: bodegaId } },
  ]);
}

export async function ratingOf(t: TestApp, type: 'cat' | 'bodega', id: number) {
  const table = type === 'cat' ? 'cats' : 'bodegas';
  const row = await t.services.database.db
    .selectFrom(table)
    .select(['rating', 'review_count'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { rating: Number(row.rating), review_count: Number(row.review_count) };
}

export async function ratingEvents(t: TestApp, type: 'cat' | 'bodega', id: number) {
  return t.services.database.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('stream_id', '=', streamIds.rating(type, id))
    .orderBy('global_position')
    .execute();
}
