// Per-user upload quotas: UPLOADS_PER_MINUTE and UPLOADS_PER_DAY, counted in the database so that
// every api process agrees; over quota → 429 with Retry-After in the error contract's shape.
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { imageOf } from '../../fixtures/images.ts';
import {
  addCat,
  createPhotoTestApp,
  createUser,
  filesUnder,
  upload,
  type PhotoTestApp,
  type TestUser,
} from './helpers.ts';

let t: PhotoTestApp;
let second: TestApp;
let catId: number;
let image: Buffer;

beforeAll(async () => {
  t = await createPhotoTestApp({ worker: false, config: { uploads: { perMinute: 3, perDay: 5 } } });
  // Another api process on the same database, with the same settings.
  second = await createTestApp({
    worker: false,
    sameDatabaseAs: t,
    config: { uploadDir: t.uploadDir, uploads: { perMinute: 3, perDay: 5 } },
  });
  const owner = await createUser(t, 'owner');
  catId = await addCat(t, owner.id);
  image = await imageOf('jpeg');
});
afterAll(async () => {
  await second.close();
  await t.close();
});

const send = (app: TestApp, user: TestUser, headers: Record<string, string> = {}) =>
  upload(app, `/api/photos/cats/${catId}/photos`, [{ name: 'photo', file: image }], user.token, headers);

describe('upload quotas', () => {
  it('reads UPLOADS_PER_MINUTE and UPLOADS_PER_DAY, 10 and 100 by default', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).uploads).toEqual({ perMinute: 10, perDay: 100 });
    expect(loadConfig({ NODE_ENV: 'test', UPLOADS_PER_MINUTE: '2', UPLOADS_PER_DAY: '0' }).uploads).toEqual({
      perMinute: 2,
      perDay: 0,
    });
    expect(() => loadConfig({ NODE_ENV: 'test', UPLOADS_PER_DAY: '-1' })).toThrow(/UPLOADS_PER_DAY/);
  });

  it('refuses the upload past the per-minute quota with 429 and Retry-After, on every api process', async () => {
    const alice = await createUser(t, 'alice');
    expect((await send(t, alice)).status).toBe(201);
    expect((await send(second, alice)).status).toBe(201);
    expect((await send(t, alice)).status).toBe(201);
    const originals = await filesUnder(path.join(t.uploadDir, 'originals'));

    for (const app of [t, second]) {
      const res = await send(app, alice);
      expect(res.status).toBe(429);
      expect(res.body).toEqual({
        error: expect.stringMatching(/at most 3 photos a minute/),
        code: 'rate_limited',
        details: { retry_after: expect.any(Number) },
      });
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBe(res.body.details.retry_after);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Nothing of the refused uploads was kept.
    expect(await filesUnder(path.join(t.uploadDir, 'originals'))).toEqual(originals);
    expect(await filesUnder(path.join(t.uploadDir, 'incoming'))).toEqual([]);

    // Other users have their own quota.
    const bob = await createUser(t, 'bob');
    expect((await send(second, bob)).status).toBe(201);
  });

  it('counts parallel uploads exactly', async () => {
    const carol = await createUser(t, 'carol');
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => send(i % 2 ? second : t, carol, { 'idempotency-key': `k${i}` })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
  });

  it('refuses the upload past the per-day quota until the oldest upload of the day is a day old', async () => {
    const dave = await createUser(t, 'dave');
    // Four uploads earlier today (two hours ago), and one just now: the day's quota of 5 is full.
    const { db } = t.services.database;
    for (let i = 0; i < 4; i++)
      await db
        .insertInto('photo_upload_log')
        .values({ user_id: dave.id, uploaded_at: sql<Date>`now() - interval '2 hours'` as never })
        .execute();
    expect((await send(t, dave)).status).toBe(201);
    const res = await send(second, dave);
    expect(res.status).toBe(429);
    expect(res.body.error).toMatch(/at most 5 photos a day/);
    // The fifth most recent upload (two hours ago) leaves the day window in about 22 hours.
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(21 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(22 * 3600);

    // Uploads older than a day no longer count.
    await sql`update photo_upload_log set uploaded_at = now() - interval '25 hours'
      where user_id = ${dave.id}`.execute(db);
    expect((await send(t, dave)).status).toBe(201);
    const left = await db
      .selectFrom('photo_upload_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', dave.id)
      .executeTakeFirstOrThrow();
    // The old rows were pruned as the new upload was counted.
    expect(Number(left.n)).toBe(1);
  });
});
