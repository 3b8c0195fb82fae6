// Exporting everything held about a person for a data request: a person with one of each thing
// (a review, a photo, a save, a view, a report, a cat and a bodega they added, a moderator's
// decision) finds each in the export, their own text opened from the log, and never their password
// hash. Also `npm run account -- export` as an operator runs it, on the test database (real
// Postgres); the embedded app's path is in tests/server/ops/operator-commands.test.ts.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportAccountByUsername } from '../../../server/accounts/export.ts';
import { personalData, type AccountExport } from '../../../server/personal-data.ts';
import { setRole } from '../../../server/moderation/roles.ts';
import { createPhotoTestApp, type PhotoTestApp } from '../photos/helpers.ts';
import { multipartForm } from '../../helpers/multipart-form.ts';
import { person, request, smallPng, type Person } from '../../helpers/world.ts';

let t: PhotoTestApp;
let other: Person;
let asker: Person;
const password = 'correct horse battery';
const tag = `X${Date.now().toString(36)}`;
const text = {
  username: `asker_${tag}`.slice(0, 30),
  email: `asker.${tag}@example.test`,
  review: `Sleeps on the bread ${tag} reviewtext`,
  caption: `Under the counter ${tag} captiontext`,
  report: `That is a raccoon ${tag} reporttext`,
  note: `Checked in person ${tag} notetext`,
  otherReview: `Someone else wrote ${tag} othertext`,
};
let passwordHash = '';
const ids = { cat: 0, bodega: 0, ownCat: 0, ownBodega: 0, review: 0, photo: 0, report: 0, otherReview: 0 };
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-export-'));

function runAccount(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    SEED_ON_EMPTY: 'false',
    REDIS_URL: '',
    DATABASE_URL: t.databaseUrl ?? '',
    DATA_DIR: path.join(root, 'data'),
    UPLOAD_DIR: t.uploadDir,
  };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/account.ts', ...args],
      { env, timeout: 90_000, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

beforeAll(async () => {
  t = await createPhotoTestApp();
  other = await person(t, 'other');
  const registered = await request(t, 'POST', '/api/auth/register', {
    as: null,
    body: { username: text.username, email: text.email, password },
  });
  expect(registered.status).toBe(201);
  asker = { id: registered.body.user.id, username: text.username, token: registered.body.access_token };
  passwordHash = (
    await t.services.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', asker.id)
      .executeTakeFirstOrThrow()
  ).password_hash;

  const added = await request(t, 'POST', '/api/cats', {
    as: other,
    body: {
      name: `Biscuit ${tag}`,
      bodega_name: `Halal Corner ${tag}`,
      address: '12 Avenue A, New York, NY',
    },
  });
  ids.cat = added.body.cat.id;
  ids.bodega = added.body.bodega.id;
  const own = await request(t, 'POST', '/api/cats', {
    as: asker,
    body: { name: `Mittens ${tag}`, bodega_name: `Asker Deli ${tag}`, address: '99 Avenue B, New York, NY' },
  });
  expect(own.status).toBe(201);
  ids.ownCat = own.body.cat.id;
  ids.ownBodega = own.body.bodega.id;

  const review = await request(t, 'POST', '/api/reviews', {
    as: asker,
    body: { cat_id: ids.cat, rating: 5, comment: text.review },
  });
  expect(review.status).toBe(201);
  ids.review = review.body.review.id;
  // Someone else's review of the person's own cat: about their cat, not theirs to receive.
  const otherReview = await request(t, 'POST', '/api/reviews', {
    as: other,
    body: { cat_id: ids.ownCat, rating: 3, comment: text.otherReview },
  });
  expect(otherReview.status).toBe(201);
  ids.otherReview = otherReview.body.review.id;

  const form = multipartForm([
    { name: 'photo', filename: 'cat.png', contentType: 'image/png', data: await smallPng() },
    { name: 'caption', value: text.caption },
  ]);
  const photo = await request(t, 'POST', `/api/photos/cats/${ids.cat}/photos`, {
    as: asker,
    body: form.payload,
    headers: form.headers,
  });
  expect(photo.status).toBe(201);
  ids.photo = photo.body.photo.id;
  expect((await request(t, 'POST', `/api/cats/${ids.cat}/save`, { as: asker })).status).toBe(200);
  expect((await request(t, 'GET', `/api/bodegas/${ids.bodega}`, { as: asker })).status).toBe(200);
  const report = await request(t, 'POST', '/api/reports', {
    as: asker,
    body: { target_type: 'review', target_id: ids.otherReview, reason: 'spam', comment: text.report },
  });
  expect(report.status).toBe(201);
  ids.report = report.body.report.id;

  // As a moderator, the person decides on a report: the decision names them in the log.
  await setRole(t.services, asker.username, 'moderator');
  const decided = await request(t, 'POST', `/api/moderation/review/${ids.otherReview}`, {
    as: asker,
    body: { action: 'dismiss', note: text.note },
  });
  expect(decided.status).toBe(200);
  await t.settle();
}, 120_000);

afterAll(async () => {
  await t?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** What every export of the person must hold, however it was made. */
function expectEverything(doc: AccountExport): void {
  expect(doc.account).toEqual({
    id: asker.id,
    username: text.username,
    email: text.email,
    created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    role: 'moderator',
  });
  const serialized = JSON.stringify(doc);
  expect(serialized).not.toContain(passwordHash);
  expect(serialized).not.toContain('password_hash');
  expect(serialized).not.toContain('scrypt');
  // Another person's text is theirs, even when it is about this person's cat.
  expect(serialized).not.toContain(text.otherReview);

  expect(doc.reviews).toEqual([
    expect.objectContaining({
      id: ids.review,
      target_type: 'cat',
      target_id: ids.cat,
      rating: 5,
      comment: text.review,
    }),
  ]);
  expect(doc.photos).toEqual([
    expect.objectContaining({
      id: ids.photo,
      target_type: 'cat',
      target_id: ids.cat,
      caption: text.caption,
      status: 'ready',
      url: expect.stringMatching(/^\/uploads\/cats\/.+_large\.webp$/),
      thumb_url: expect.stringMatching(/^\/uploads\/cats\/.+_thumb\.webp$/),
      original_path: null,
      created_at: expect.any(String),
    }),
  ]);
  expect(doc.saves).toEqual([{ target_type: 'cat', target_id: ids.cat, saved_at: expect.any(String) }]);
  expect(doc.recently_viewed).toContainEqual({
    target_type: 'bodega',
    target_id: ids.bodega,
    viewed_at: expect.any(String),
  });
  expect(doc.reports).toEqual([
    expect.objectContaining({
      id: ids.report,
      target_type: 'review',
      target_id: ids.otherReview,
      reason: 'spam',
      comment: text.report,
      open: false,
    }),
  ]);
  expect(doc.cats_added).toEqual([expect.objectContaining({ id: ids.ownCat, name: `Mittens ${tag}` })]);
  expect(doc.bodegas_added).toEqual([
    expect.objectContaining({ id: ids.ownBodega, name: `Asker Deli ${tag}` }),
  ]);

  const events = doc.log.events;
  const of = (type: string) => events.filter((e) => e.type === type);
  expect(doc.log.about).toMatch(/sealed/);
  expect(of('ReviewPosted').map((e) => e.data)).toEqual([
    expect.objectContaining({ review_id: ids.review, user_id: asker.id, comment: text.review }),
  ]);
  expect(of('PhotoUploaded').map((e) => e.data)).toEqual([
    expect.objectContaining({ photo_id: ids.photo, uploaded_by: asker.id, caption: text.caption }),
  ]);
  expect(of('ContentReported').map((e) => e.data)).toEqual([
    expect.objectContaining({ report_id: ids.report, user_id: asker.id, comment: text.report }),
  ]);
  expect(of('CatAdded').map((e) => e.data)).toEqual([expect.objectContaining({ cat_id: ids.ownCat })]);
  expect(of('BodegaAdded').map((e) => e.data)).toEqual([
    expect.objectContaining({ bodega_id: ids.ownBodega }),
  ]);
  expect(of('ItemSaved').map((e) => e.data)).toEqual([
    { user_id: asker.id, target_type: 'cat', target_id: ids.cat },
  ]);
  expect(of('RoleChanged').map((e) => e.data)).toEqual([{ user_id: asker.id, role: 'moderator' }]);
  expect(of('ModerationDecided').map((e) => e.data)).toEqual([
    expect.objectContaining({ moderator_id: asker.id, action: 'dismiss', note: text.note }),
  ]);
  // Oldest first, each once.
  const positions = events.map((e) => e.position);
  expect(positions).toEqual([...new Set(positions)].sort((a, b) => a - b));
}

describe('exporting a person’s data', () => {
  it('holds each thing they have, their text opened from the log, and no password hash', async () => {
    // Usernames are matched as at sign-in, whatever the case.
    const doc = await exportAccountByUsername(t.services, text.username.toUpperCase(), personalData);
    expectEverything(doc);
  });

  it('names an unknown username with a 404', async () => {
    await expect(
      exportAccountByUsername(t.services, 'nobody_by_this_name', personalData),
    ).rejects.toMatchObject({
      statusCode: 404,
      message: 'No user is called "nobody_by_this_name"',
    });
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('npm run account -- export', () => {
  it('prints the document alone on stdout', async () => {
    const run = await runAccount('export', text.username);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expectEverything(JSON.parse(run.stdout) as AccountExport);
  }, 120_000);

  it('writes it to --out, readable by its owner only', async () => {
    const file = path.join(root, 'export.json');
    const run = await runAccount('export', text.username, '--out', file);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Wrote everything held about ${text.username} to ${file}.`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expectEverything(JSON.parse(fs.readFileSync(file, 'utf8')) as AccountExport);
    expect(fs.readdirSync(root).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 120_000);

  it('names an unknown user and exits 1, printing no document', async () => {
    const run = await runAccount('export', 'nobody_by_this_name');
    expect(run.stderr).toContain('No user is called "nobody_by_this_name"');
    expect(run.stdout).toBe('');
    expect(run.code).toBe(1);
  }, 120_000);

  it('prints the usage and exits 2 for bad arguments', async () => {
    for (const args of [['export'], ['export', text.username, '--out'], ['export', text.username, 'extra']]) {
      const bad = await runAccount(...args);
      expect(bad.stderr).toContain('npm run account -- export <username> [--out <file>]');
      expect(bad.code).toBe(2);
    }
  }, 120_000);
});
