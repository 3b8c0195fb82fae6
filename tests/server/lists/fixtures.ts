// Given-steps shared by the list tests: accounts made through the API, and catalogue entries made
// by appending the catalogue's own events (the same path its routes take).
import { expect } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/schema.ts';
import { streamIds } from '../../../server/events/types.ts';
import type { Services } from '../../../server/services.ts';
import { call, type TestApp } from '../../helpers/app.ts';
import { appendBodega, appendCat } from '../../helpers/catalogue-events.ts';

export type Member = { id: number; username: string; email: string; token: string };

let counter = 0;

export async function signUp(t: TestApp, name = `member${++counter}`): Promise<Member> {
  const email = `${name}@example.test`;
  const res = await call(t.app, 'POST', '/api/auth/register', {
    username: name,
    email,
    password: 'whiskers1',
  });
  expect(res.status).toBe(201);
  return { ...res.body.user, token: res.body.access_token };
}

export async function addBodega(services: Services, name = 'Corner Deli', createdBy: number | null = null) {
  return appendBodega(services, {
    name,
    created_by: createdBy,
    description: `${name} on Broadway`,
    hours: '24/7',
  });
}

export async function addCat(
  services: Services,
  bodegaId: number,
  name = 'Whiskers',
  createdBy: number | null = null,
) {
  return appendCat(services, bodegaId, {
    name,
    created_by: createdBy,
    description: `${name} guards the snacks`,
    age: '3',
    sex: 'Female',
    personality: 'Bossy',
    color: 'Orange',
    weight: '10 lb',
  });
}

/** Deletes a cat the way the catalogue does: its event, then forgetting its views, in one transaction. */
export async function deleteCat(
  services: Services,
  catId: number,
  bodegaId: number,
  alsoInTransaction?: (trx: Kysely<DB>) => Promise<void>,
) {
  await services.database.db.transaction().execute(async (trx) => {
    await services.store.append(trx, streamIds.cat(catId), 'any', [
      { type: 'CatDeleted', data: { cat_id: catId, bodega_id: bodegaId } },
    ]);
    await alsoInTransaction?.(trx);
  });
}

export async function deleteBodega(services: Services, bodegaId: number) {
  const { db } = services.database;
  const cats = await db.selectFrom('cats').select('id').where('bodega_id', '=', bodegaId).execute();
  await db.transaction().execute(async (trx) => {
    for (const cat of cats)
      await services.store.append(trx, streamIds.cat(Number(cat.id)), 'any', [
        { type: 'CatDeleted', data: { cat_id: Number(cat.id), bodega_id: bodegaId } },
      ]);
    await services.store.append(trx, streamIds.bodega(bodegaId), 'any', [
      { type: 'BodegaDeleted', data: { bodega_id: bodegaId } },
    ]);
  });
}

export const CAT_SUMMARY_KEYS = [
  'id',
  'name',
  'bodega_id',
  'bodega_name',
  'address',
  'latitude',
  'longitude',
  'description',
  'age',
  'breed',
  'sex',
  'personality',
  'color',
  'weight',
  'is_friendly',
  'rating',
  'review_count',
  'primary_photo',
  'primary_thumb',
  'created_by',
  'created_at',
];

export const BODEGA_SUMMARY_KEYS = [
  'id',
  'name',
  'address',
  'latitude',
  'longitude',
  'description',
  'phone',
  'hours',
  'cat_count',
  'rating',
  'review_count',
  'is_verified',
  'primary_photo',
  'primary_thumb',
  'created_by',
  'created_at',
];

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
