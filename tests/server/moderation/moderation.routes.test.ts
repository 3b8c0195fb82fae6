// Reports and moderation through HTTP: the report rules and codes, hiding at the threshold, what
// hidden content looks like to the public, its creator and moderators in every list, decisions,
// ratings without a hidden review, the live stream's messages, and replay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projections } from '../../../server/domains.ts';
import { replay } from '../../../server/events/replay.ts';
import { setRole } from '../../../server/moderation/roles.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import type { Json } from '../../helpers/json.ts';
import { buildWorld, person, request, type Person, type World } from '../../helpers/world.ts';
import { connectStream, listenOnLoopback } from '../live/stream-client.ts';
import { establish } from './standing.ts';

let t: TestApp;
let creator: Person;
let uploader: Person;
let reviewer: Person;
let moderator: Person;
let reporters: Person[];
let world: World;

beforeAll(async () => {
  t = await createTestApp({ config: { reportsToHide: 3 } });
  const people = await Promise.all(
    ['creator', 'uploader', 'reviewer', 'moderator'].map((name) => person(t, name)),
  );
  [creator, uploader, reviewer, moderator] = people as [Person, Person, Person, Person];
  reporters = await Promise.all(['ann', 'bob', 'cy', 'dee'].map((name) => person(t, name)));
  await setRole(t.services, moderator.username, 'moderator');
  world = await buildWorld(t, { creator, uploader, reviewer });
  // Their reports count toward hiding (reporters.routes.test.ts covers those that do not).
  for (const who of reporters) await establish(t, who, world.catId);
  await t.settle();
});

afterAll(async () => {
  await t?.close();
});

function report(as: Person | null, body: Record<string, unknown>) {
  return request(t, 'POST', '/api/reports', { as, body });
}

function decide(as: Person | null, type: string, id: number, action: string, note?: string) {
  return request(t, 'POST', `/api/moderation/${type}/${id}`, { as, body: { action, note } });
}

/** A cat (with a bodega of its own) whose name, breed and personality nothing else shares. */
async function uniqueCat(label: string, at = { latitude: 40.7, longitude: -73.9 }) {
  const res = await request(t, 'POST', '/api/cats', {
    as: creator,
    body: {
      name: `Zorbalina ${label}`,
      bodega_name: `Quixotic Deli ${label}`,
      address: `${label.length + 10} Elm Street, New York, NY`,
      breed: `Breed${label}`,
      personality: `Mood${label}`,
      ...at,
    },
  });
  expect(res.status).toBe(201);
  return {
    catId: res.body.cat.id as number,
    bodegaId: res.body.bodega.id as number,
    name: res.body.cat.name as string,
  };
}

const ids = (items: Json[]) => items.map((i) => i.id as number);

describe('POST /api/reports', () => {
  it('files a report and answers 201 with its shape', async () => {
    const res = await report(reporters[0]!, {
      target_type: 'cat',
      target_id: world.catId,
      reason: 'wrong_info',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body.report).sort()).toEqual([
      'created_at',
      'id',
      'reason',
      'target_id',
      'target_type',
    ]);
    expect(res.body.report).toMatchObject({
      target_type: 'cat',
      target_id: world.catId,
      reason: 'wrong_info',
    });
    expect(Number.isInteger(res.body.report.id)).toBe(true);
    expect(new Date(res.body.report.created_at).toISOString()).toBe(res.body.report.created_at);
  });

  it('answers 409 to the same person reporting the same target again', async () => {
    const body = { target_type: 'review', target_id: world.catReviewId, reason: 'spam' };
    expect((await report(reporters[1]!, body)).status).toBe(201);
    const again = await report(reporters[1]!, { ...body, reason: 'offensive', comment: 'still' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'already_reported',
      error: 'You have already reported this review',
    });
  });

  it('answers 400 to reporting your own content, for every kind of target', async () => {
    const own = [
      [creator, 'cat', world.catId],
      [creator, 'bodega', world.bodegaId],
      [reviewer, 'review', world.catReviewId],
      [uploader, 'photo', world.catPhotoId],
    ] as const;
    for (const [as, type, id] of own) {
      const res = await report(as, { target_type: type, target_id: id, reason: 'spam' });
      expect(res.status, type).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_input', error: `You cannot report your own ${type}` });
    }
  });

  it('answers 404 for an unknown target of each kind', async () => {
    const names = { cat: 'Cat', bodega: 'Bodega', review: 'Review', photo: 'Photo' };
    for (const [type, name] of Object.entries(names)) {
      const res = await report(reporters[0]!, { target_type: type, target_id: 987654321, reason: 'spam' });
      expect(res.status, type).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', error: `${name} not found` });
    }
  });

  it('answers 400 in the error shape to bad input, and 401 when signed out', async () => {
    const base = { target_type: 'bodega', target_id: world.bodegaId, reason: 'spam' };
    const bad = [
      { ...base, reason: 'boring' },
      { ...base, target_type: 'user' },
      { ...base, target_id: 'seven' },
      { ...base, target_id: 0 },
      { ...base, comment: 'x'.repeat(501) },
      { ...base, extra: true },
      { target_type: 'cat', target_id: world.catId },
    ];
    for (const body of bad) {
      const res = await report(reporters[2]!, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(typeof res.body.error).toBe('string');
      expect(res.body.code).toBe('invalid_input');
    }
    expect((await report(reporters[2]!, { ...base, comment: 'y'.repeat(500) })).status).toBe(201);
    expect((await report(null, base)).status).toBe(401);
  });
});

describe('hiding at the threshold', () => {
  it('hides a cat once three different people report it, everywhere but for its creator and moderators', async () => {
    const cat = await uniqueCat('Threshold');
    const [ann, bob, cy] = reporters as [Person, Person, Person];
    // Ann saves and views it while it is visible.
    expect((await request(t, 'POST', `/api/cats/${cat.catId}/save`, { as: ann })).status).toBeLessThan(300);
    expect((await request(t, 'GET', `/api/cats/${cat.catId}`, { as: ann })).status).toBe(200);
    const box = '/api/map?west=-74.0&south=40.6&east=-73.8&north=40.8&zoom=12';
    const mapBefore = await request(t, 'GET', box);

    for (const [i, who] of [ann, bob].entries()) {
      const reason = i === 0 ? 'spam' : 'offensive';
      expect((await report(who, { target_type: 'cat', target_id: cat.catId, reason })).status).toBe(201);
    }
    expect((await request(t, 'GET', `/api/cats/${cat.catId}`)).status).toBe(200);
    expect((await report(cy, { target_type: 'cat', target_id: cat.catId, reason: 'spam' })).status).toBe(201);

    // Detail: 404 for the public and other members, hidden: true for its creator and moderators.
    expect((await request(t, 'GET', `/api/cats/${cat.catId}`)).status).toBe(404);
    expect((await request(t, 'GET', `/api/cats/${cat.catId}`, { as: ann })).status).toBe(404);
    for (const who of [creator, moderator]) {
      const res = await request(t, 'GET', `/api/cats/${cat.catId}`, { as: who });
      expect(res.status).toBe(200);
      expect(res.body.cat.hidden).toBe(true);
    }
    // Every list.
    const search = await request(t, 'GET', `/api/search/cats?q=${encodeURIComponent(cat.name)}`);
    expect(ids(search.body.cats)).not.toContain(cat.catId);
    const nearby = await request(t, 'GET', '/api/search/nearby?lat=40.7&lng=-73.9&radius=1&type=cats');
    expect(ids(nearby.body.cats)).not.toContain(cat.catId);
    const suggest = await request(t, 'GET', '/api/search/suggest?q=Zorbalina%20Threshold');
    expect(suggest.body.suggestions.filter((s: Json) => s.kind === 'cat')).toEqual([]);
    const filters = await request(t, 'GET', '/api/search/filters');
    expect(filters.body.breeds).not.toContain('BreedThreshold');
    expect(filters.body.personalities).not.toContain('MoodThreshold');
    const saved = await request(t, 'GET', '/api/users/savedcats', { as: ann });
    expect(ids(saved.body.saved_cats)).not.toContain(cat.catId);
    expect(saved.body.pagination.total).toBe(saved.body.saved_cats.length);
    const viewed = await request(t, 'GET', '/api/users/recently-viewed', { as: ann });
    expect(ids(viewed.body.recently_viewed)).not.toContain(cat.catId);
    const bodega = await request(t, 'GET', `/api/bodegas/${cat.bodegaId}`);
    expect(ids(bodega.body.cats)).not.toContain(cat.catId);
    // Its reviews are as hidden as its page.
    const reviews = `/api/reviews/cat/${cat.catId}`;
    expect((await request(t, 'GET', reviews)).status).toBe(404);
    expect((await request(t, 'GET', reviews, { as: ann })).status).toBe(404);
    for (const who of [creator, moderator]) {
      expect((await request(t, 'GET', reviews, { as: who })).status).toBe(200);
    }
    const mapAfter = await request(t, 'GET', box);
    expect(mapAfter.body.total).toBe(mapBefore.body.total - 1);
    const sum = mapAfter.body.clusters.reduce((n: number, c: Json) => n + (c.count as number), 0);
    expect(sum).toBe(mapAfter.body.total);

    // The queue shows it, most reported first, with its reasons.
    const queue = await request(t, 'GET', '/api/moderation/queue', { as: moderator });
    expect(queue.status).toBe(200);
    const item = queue.body.items.find((i: Json) => i.target_type === 'cat' && i.target_id === cat.catId);
    expect(item).toMatchObject({
      title: cat.name,
      hidden: true,
      reports: 3,
      reasons: { spam: 2, offensive: 1 },
    });
    expect(queue.body.items[0].reports).toBeGreaterThanOrEqual(3);
    expect(item.first_reported_at <= item.last_reported_at).toBe(true);

    // Dismissing closes the reports and restores it.
    const dismissed = await decide(moderator, 'cat', cat.catId, 'dismiss', 'Looks fine');
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.item).toMatchObject({ target_id: cat.catId, hidden: false });
    expect((await request(t, 'GET', `/api/cats/${cat.catId}`)).status).toBe(200);
    expect((await request(t, 'GET', `/api/cats/${cat.catId}`)).body.cat.hidden).toBeUndefined();
    expect((await request(t, 'GET', `/api/reviews/cat/${cat.catId}`)).status).toBe(200);
    const again = await request(t, 'GET', `/api/search/cats?q=${encodeURIComponent(cat.name)}`);
    expect(ids(again.body.cats)).toContain(cat.catId);
    expect((await request(t, 'GET', box)).body.total).toBe(mapBefore.body.total);
    const open = await request(t, 'GET', '/api/moderation/queue?status=open', { as: moderator });
    expect(open.body.items.some((i: Json) => i.target_id === cat.catId && i.target_type === 'cat')).toBe(
      false,
    );
    const resolved = await request(t, 'GET', '/api/moderation/queue?status=resolved', { as: moderator });
    const closed = resolved.body.items.find(
      (i: Json) => i.target_type === 'cat' && i.target_id === cat.catId,
    );
    expect(closed).toMatchObject({ hidden: false, reports: 3 });
  });

  it('keeps the queue and decisions to moderators: 403 for members, 401 signed out', async () => {
    expect((await request(t, 'GET', '/api/moderation/queue', { as: reporters[0]! })).status).toBe(403);
    expect((await request(t, 'GET', '/api/moderation/queue')).status).toBe(401);
    expect((await decide(reporters[0]!, 'cat', world.catId, 'hide')).status).toBe(403);
    expect((await decide(null, 'cat', world.catId, 'hide')).status).toBe(401);
    expect((await decide(moderator, 'cat', 987654321, 'hide')).status).toBe(404);
    expect((await decide(moderator, 'cat', world.catId, 'delete')).status).toBe(400);
    expect((await request(t, 'GET', '/api/moderation/queue?status=all', { as: moderator })).status).toBe(400);
  });
});

describe('moderators', () => {
  it('hide and restore a review, and the rating is recomputed without it', async () => {
    const cat = await uniqueCat('Rated');
    const post = (as: Person, rating: number) =>
      request(t, 'POST', '/api/reviews', {
        as,
        body: { cat_id: cat.catId, rating, comment: `rated ${rating}` },
      });
    expect((await post(reviewer, 5)).status).toBe(201);
    const low = await post(reporters[3]!, 1);
    await t.settle();
    const rating = async () => (await request(t, 'GET', `/api/cats/${cat.catId}`)).body.cat;
    expect(await rating()).toMatchObject({ rating: 3, review_count: 2 });

    const hidReview = await decide(moderator, 'review', low.body.review.id, 'hide');
    expect(hidReview.body.item).toMatchObject({
      title: 'rated 1',
      url: `/cat/${cat.catId}`,
      hidden: true,
      thumb_url: null,
    });
    await t.settle();
    expect(await rating()).toMatchObject({ rating: 5, review_count: 1 });
    const list = await request(t, 'GET', `/api/reviews/cat/${cat.catId}`);
    expect(ids(list.body.reviews)).not.toContain(low.body.review.id);
    expect(list.body.pagination.total).toBe(1);

    expect((await decide(moderator, 'review', low.body.review.id, 'restore')).body.item.hidden).toBe(false);
    await t.settle();
    expect(await rating()).toMatchObject({ rating: 3, review_count: 2 });
  });

  it('hide a bodega and with it its cats, from lists and the map; a photo leaves its page', async () => {
    const cat = await uniqueCat('Shop', { latitude: 40.72, longitude: -73.95 });
    const box = (type: string) => `/api/map?west=-74.0&south=40.6&east=-73.8&north=40.8&zoom=12&type=${type}`;
    const before = {
      cats: await request(t, 'GET', box('cats')),
      bodegas: await request(t, 'GET', box('bodegas')),
    };
    expect((await decide(moderator, 'bodega', cat.bodegaId, 'hide', 'Closed down')).status).toBe(200);
    expect((await request(t, 'GET', `/api/bodegas/${cat.bodegaId}`)).status).toBe(404);
    expect((await request(t, 'GET', `/api/cats/${cat.catId}`)).status).toBe(404);
    const own = await request(t, 'GET', `/api/bodegas/${cat.bodegaId}`, { as: creator });
    expect(own.body.bodega.hidden).toBe(true);
    expect(ids(own.body.cats)).toContain(cat.catId);
    const search = await request(t, 'GET', '/api/search/bodegas?q=Quixotic%20Deli%20Shop');
    expect(ids(search.body.bodegas)).not.toContain(cat.bodegaId);
    expect(ids((await request(t, 'GET', '/api/search/cats?q=Zorbalina%20Shop')).body.cats)).not.toContain(
      cat.catId,
    );
    expect((await request(t, 'GET', box('cats'))).body.total).toBe(before.cats.body.total - 1);
    expect((await request(t, 'GET', box('bodegas'))).body.total).toBe(before.bodegas.body.total - 1);

    expect((await decide(moderator, 'bodega', cat.bodegaId, 'restore')).status).toBe(200);
    expect((await request(t, 'GET', `/api/cats/${cat.catId}`)).status).toBe(200);
    expect((await request(t, 'GET', box('cats'))).body.total).toBe(before.cats.body.total);
    expect((await request(t, 'GET', box('bodegas'))).body.total).toBe(before.bodegas.body.total);

    const hidPhoto = await decide(moderator, 'photo', world.catPhotoId, 'hide');
    expect(hidPhoto.status).toBe(200);
    // The queue links to the page the photo is on and shows its small variant.
    expect(hidPhoto.body.item).toMatchObject({ url: `/cat/${world.catId}`, hidden: true });
    expect(hidPhoto.body.item.thumb_url).toMatch(/^\/uploads\/cats\/.+_thumb\.webp$/);
    const page = await request(t, 'GET', `/api/cats/${world.catId}`);
    expect(ids(page.body.cat.photos)).not.toContain(world.catPhotoId);
    expect(page.body.cat.primary_photo).toBeNull();
    const asModerator = await request(t, 'GET', `/api/cats/${world.catId}`, { as: moderator });
    const seen = asModerator.body.cat.photos.find((p: Json) => p.id === world.catPhotoId);
    expect(seen.hidden).toBe(true);
    expect(asModerator.body.cat.photos.filter((p: Json) => p.hidden !== undefined)).toHaveLength(1);
    expect((await decide(moderator, 'photo', world.catPhotoId, 'restore')).status).toBe(200);
    expect((await request(t, 'GET', `/api/cats/${world.catId}`)).body.cat.primary_photo).not.toBeNull();
  });

  it('a dismissal leaves content a moderator hid hidden', async () => {
    const cat = await uniqueCat('Kept');
    // Reported first: once hidden, the cat is not there to report for anyone but moderators.
    expect(
      (await report(reporters[0]!, { target_type: 'cat', target_id: cat.catId, reason: 'other' })).status,
    ).toBe(201);
    await decide(moderator, 'cat', cat.catId, 'hide');
    const res = await decide(moderator, 'cat', cat.catId, 'dismiss');
    expect(res.body.item).toMatchObject({ hidden: true });
    expect((await request(t, 'GET', `/api/cats/${cat.catId}`)).status).toBe(404);
  });
});

describe('live stream and replay', () => {
  it('sends content.hidden and content.restored over the WebSocket', async () => {
    const base = await listenOnLoopback(t.app);
    const client = await connectStream(base);
    try {
      await client.waitFor((m) => m.some((x) => x.type === 'hello'));
      await decide(moderator, 'review', world.bodegaReviewId, 'hide');
      await decide(moderator, 'review', world.bodegaReviewId, 'restore');
      // Earlier tests' decisions may still be on their way to the stream when it opens: only this
      // review's messages are counted.
      const review = JSON.stringify({ target_type: 'review', target_id: world.bodegaReviewId });
      const ours = (m: { type: string; data?: unknown }) =>
        m.type.startsWith('content.') && JSON.stringify(m.data) === review;
      await client.waitFor((m) => m.some((x) => ours(x) && x.type === 'content.restored'));
      const moderation = client.events().filter(ours);
      expect(moderation.map((m) => [m.type, m.data])).toEqual([
        ['content.hidden', { target_type: 'review', target_id: world.bodegaReviewId }],
        ['content.restored', { target_type: 'review', target_id: world.bodegaReviewId }],
      ]);
    } finally {
      await client.close();
    }
  });

  it('rebuilds the moderation state and every hidden flag exactly from the log', async () => {
    const cat = await uniqueCat('Replayed');
    for (const who of reporters.slice(0, 3)) {
      await report(who, { target_type: 'cat', target_id: cat.catId, reason: 'not_a_cat' });
    }
    await t.settle();
    const queue = await request(t, 'GET', '/api/moderation/queue', { as: moderator });
    const verified = await replay(t.services.database, projections, { verify: true });
    const moderated = [
      'reports',
      'moderation_items',
      'moderators',
      'cats',
      'bodegas',
      'map_cells',
      'map_places',
      'map_hidden_cats',
    ];
    for (const table of moderated) {
      const d = verified.differences.find((x) => x.table === table);
      expect(d, table).toMatchObject({ same: true });
    }
    expect(verified.differences.every((d) => d.same)).toBe(true);
    await replay(t.services.database, projections, { force: true });
    expect((await request(t, 'GET', '/api/moderation/queue', { as: moderator })).body).toEqual(queue.body);
    expect((await request(t, 'GET', `/api/cats/${cat.catId}`)).status).toBe(404);
  });
});
