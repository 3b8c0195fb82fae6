// Whose reports hide content, and how many one account may file. Reports from accounts younger
// than REPORTER_MIN_ACCOUNT_AGE_HOURS, or with nothing of theirs shown, reach the moderators' queue
// but do not count toward REPORTS_TO_HIDE; established accounts' do. Whether a report counts is
// recorded in its event when it is filed, so replay rebuilds the same state and reports from before
// the rule keep counting. REPORTS_PER_DAY caps one account's reports (429 with Retry-After).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../server/domains.ts';
import { sealPlainEvents } from '../../../server/events/personal.ts';
import { replay } from '../../../server/events/replay.ts';
import { readStream } from '../../../server/events/store.ts';
import { streamIds } from '../../../server/events/types.ts';
import { setRole } from '../../../server/moderation/roles.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import type { Json } from '../../helpers/json.ts';
import { person, request, type Person } from '../../helpers/world.ts';
import { ageAccount, establish } from './standing.ts';

const PER_DAY = 4;

let t: TestApp;
let creator: Person;
let moderator: Person;
let regularCat: number;
let serial = 0;

beforeAll(async () => {
  t = await createTestApp({
    config: { reportsToHide: 3, reports: { minAccountAgeHours: 72, perDay: PER_DAY } },
  });
  creator = await person(t, 'creator');
  moderator = await person(t, 'moderator');
  await setRole(t.services, moderator.username, 'moderator');
  regularCat = (await addCat()).cat;
});

afterAll(async () => {
  await t?.close();
});

async function addCat() {
  const n = ++serial;
  const res = await request(t, 'POST', '/api/cats', {
    as: creator,
    body: { name: `Pip ${n}`, bodega_name: `Loud Deli ${n}`, address: `${n + 40} Oak Street, New York, NY` },
  });
  expect(res.status).toBe(201);
  return { cat: res.body.cat.id as number, bodega: res.body.bodega.id as number };
}

async function people(label: string, count: number): Promise<Person[]> {
  const made: Person[] = [];
  for (let i = 0; i < count; i++) made.push(await person(t, `${label}${i}_`));
  return made;
}

const report = (as: Person, type: string, id: number, reason = 'spam') =>
  request(t, 'POST', '/api/reports', { as, body: { target_type: type, target_id: id, reason } });

const catStatus = async (id: number) => (await request(t, 'GET', `/api/cats/${id}`)).status;

async function queueItem(type: string, id: number) {
  const queue = await request(t, 'GET', '/api/moderation/queue?per_page=100', { as: moderator });
  return queue.body.items.find((i: Json) => i.target_type === type && i.target_id === id);
}

describe('whose reports hide content', () => {
  it('three new accounts do not hide a cat, but their reports are in the queue', async () => {
    const { cat } = await addCat();
    // Made just now, each even with a review: too young to count.
    const newcomers = await people('fresh', 3);
    for (const who of newcomers) {
      const reviewed = await request(t, 'POST', '/api/reviews', {
        as: who,
        body: { cat_id: regularCat, rating: 5, comment: 'New here' },
      });
      expect(reviewed.status).toBe(201);
      expect((await report(who, 'cat', cat)).status).toBe(201);
    }
    expect(await catStatus(cat)).toBe(200);
    expect(await queueItem('cat', cat)).toMatchObject({ hidden: false, reports: 3, reasons: { spam: 3 } });
  });

  it('nor do three old accounts with nothing of theirs shown', async () => {
    const { cat } = await addCat();
    const lurkers = await people('lurker', 3);
    for (const who of lurkers) {
      await ageAccount(t, who, 30);
      expect((await report(who, 'cat', cat)).status).toBe(201);
    }
    expect(await catStatus(cat)).toBe(200);
    expect(await queueItem('cat', cat)).toMatchObject({ hidden: false, reports: 3 });
  });

  it('three established accounts still hide it, and the queue shows every report', async () => {
    const { cat } = await addCat();
    const [newcomer] = await people('early', 1);
    expect((await report(newcomer!, 'cat', cat, 'other')).status).toBe(201);
    const regulars = await people('regular', 3);
    for (const who of regulars) await establish(t, who, regularCat);
    expect((await report(regulars[0]!, 'cat', cat)).status).toBe(201);
    expect((await report(regulars[1]!, 'cat', cat)).status).toBe(201);
    // Two that count and one that does not: still shown.
    expect(await catStatus(cat)).toBe(200);
    expect((await report(regulars[2]!, 'cat', cat)).status).toBe(201);
    expect(await catStatus(cat)).toBe(404);
    expect(await queueItem('cat', cat)).toMatchObject({
      hidden: true,
      reports: 4,
      reasons: { spam: 3, other: 1 },
    });
  });

  it('a contribution moderation hid gives no standing', async () => {
    const { cat } = await addCat();
    const reporters = await people('hidden_record', 3);
    for (const who of reporters) {
      await establish(t, who, regularCat);
      const [own] = await sql<{ id: string }>`
        select id from reviews where user_id = ${who.id}`
        .execute(t.services.database.db)
        .then((r) => r.rows);
      const hid = await request(t, 'POST', `/api/moderation/review/${own!.id}`, {
        as: moderator,
        body: { action: 'hide' },
      });
      expect(hid.status).toBe(200);
      expect((await report(who, 'cat', cat)).status).toBe(201);
    }
    expect(await catStatus(cat)).toBe(200);
  });
});

describe('REPORTS_PER_DAY', () => {
  it('refuses the report over the limit with 429 and Retry-After; refused reports use none of it', async () => {
    const [busy] = await people('busy', 1);
    // A refused report (here an unknown target; below a second report of one target) does not count.
    expect((await report(busy!, 'cat', 987654321)).status).toBe(404);
    const targets = [];
    for (let i = 0; i <= PER_DAY; i++) targets.push((await addCat()).cat);
    const first = await report(busy!, 'cat', targets[0]!);
    expect(first.status).toBe(201);
    expect((await report(busy!, 'cat', targets[0]!)).status).toBe(409);
    for (const cat of targets.slice(1, PER_DAY)) expect((await report(busy!, 'cat', cat)).status).toBe(201);

    const refused = await report(busy!, 'cat', targets[PER_DAY]!);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      code: 'rate_limited',
      error: expect.stringMatching(
        /^Report limit reached: at most 4 reports a day\. Try again in \d+ seconds\.$/,
      ),
      details: { retry_after: expect.any(Number) },
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBe(refused.body.details.retry_after);
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(await queueItem('cat', targets[PER_DAY]!)).toBeUndefined();

    // Once the oldest has left the window (filed a day earlier, in the log and its read table alike).
    const { db } = t.services.database;
    const id = first.body.report.id as number;
    await sql`update reports set created_at = created_at - interval '1 day' where id = ${id}`.execute(db);
    await sql`update events set recorded_at = recorded_at - interval '1 day'
      where type = 'ContentReported' and (data->>'report_id')::bigint = ${id}`.execute(db);
    expect((await report(busy!, 'cat', targets[PER_DAY]!)).status).toBe(201);
  });

  it('counts per account: another person may still report', async () => {
    const [other] = await people('other', 1);
    expect((await report(other!, 'cat', regularCat)).status).toBe(201);
  });
});

describe('replay', () => {
  it('rebuilds the same hidden state from what each report recorded, whenever it is replayed', async () => {
    const shown = await addCat();
    const hidden = await addCat();
    const newcomers = await people('replay_new', 3);
    const regulars = await people('replay_regular', 3);
    for (const who of regulars) await establish(t, who, regularCat);
    for (const who of newcomers) expect((await report(who, 'cat', shown.cat)).status).toBe(201);
    for (const who of regulars) expect((await report(who, 'cat', hidden.cat)).status).toBe(201);
    // The newcomers grow old before the replay: what counted is what their events say.
    for (const who of newcomers) await ageAccount(t, who, 30);
    await t.settle();
    const before = await request(t, 'GET', '/api/moderation/queue?per_page=100', { as: moderator });

    const verified = await replay(t.services.database, projections, { verify: true });
    for (const table of ['reports', 'moderation_items', 'cats', 'bodegas']) {
      expect(
        verified.differences.find((d) => d.table === table),
        table,
      ).toMatchObject({ same: true });
    }
    await replay(t.services.database, projections, { force: true });
    expect((await request(t, 'GET', '/api/moderation/queue?per_page=100', { as: moderator })).body).toEqual(
      before.body,
    );
    expect(await catStatus(shown.cat)).toBe(200);
    expect(await catStatus(hidden.cat)).toBe(404);
    // The newcomers' three open reports still do not count after the replay: one established
    // report more is one of three.
    const [late] = await people('replay_late', 1);
    await establish(t, late!, regularCat);
    expect((await report(late!, 'cat', shown.cat)).status).toBe(201);
    expect(await catStatus(shown.cat)).toBe(200);
  });

  it('reports stored before counting was recorded keep counting, as they did', async () => {
    const { cat } = await addCat();
    const olds = await people('before_rule', 2);
    for (const who of olds) expect((await report(who, 'cat', cat)).status).toBe(201);
    // As the code before this rule stored them: schema v2, no counts_toward_hide (every report
    // counted). These two are newcomers' and recorded as not counting; stored the old way, they count.
    const { db } = t.services.database;
    await sql`
      update events set schema_version = 2, data = data - 'counts_toward_hide'
      where stream_id = ${streamIds.moderation('cat', cat)} and type = 'ContentReported'`.execute(db);
    const stored = await readStream(db, streamIds.moderation('cat', cat), ['ContentReported']);
    expect(stored.map((e) => e.type === 'ContentReported' && e.data.counts_toward_hide)).toEqual([
      true,
      true,
    ]);

    const [third] = await people('after_rule', 1);
    await establish(t, third!, regularCat);
    expect((await report(third!, 'cat', cat)).status).toBe(201);
    expect(await catStatus(cat)).toBe(404);
  });

  it('a report stored in plain text (schema v1) is sealed as v2 and still read as counting', async () => {
    const { db } = t.services.database;
    const [author] = await people('plain', 1);
    const stream = streamIds.moderation('cat', 987650001);
    const data = {
      report_id: 987650001,
      target_type: 'cat',
      target_id: 987650001,
      user_id: author!.id,
      reason: 'spam',
      comment: 'Plain old report',
    };
    await sql`
      insert into events (stream_id, stream_version, type, schema_version, data, metadata)
      values (${stream}, 1, 'ContentReported', 1, ${JSON.stringify(data)}::jsonb, '{}'::jsonb)`.execute(db);
    expect(await sealPlainEvents(db)).toBeGreaterThanOrEqual(1);
    const { rows } = await sql<{ schema_version: number }>`
      select schema_version from events where stream_id = ${stream}`.execute(db);
    expect(rows.map((r) => Number(r.schema_version))).toEqual([2]);
    const [read] = await readStream(db, stream, ['ContentReported']);
    expect(read!.data).toMatchObject({ comment: 'Plain old report', counts_toward_hide: true });
    // Sealed rows are not rewritten again.
    expect(await sealPlainEvents(db)).toBe(0);
  });
});
