import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { formatCursor, headCursor } from '../../../server/events/consumer.ts';
import { createTestApp, testConfig, type TestApp } from '../../helpers/app.ts';
import { connectStream, listenOnLoopback, type StreamClient } from './stream-client.ts';
import { bodegaFields, catFields, publisher } from './publish.ts';

const REPLAY_LIMIT = 20;

describe('GET /api/stream', () => {
  let t: TestApp;
  let base: string;
  let publish: ReturnType<typeof publisher>;
  const open: StreamClient[] = [];
  // Every connection starts after what earlier tests appended, so it hears only its own test.
  const connect = async (query = '') => {
    await publish.visible();
    const client = await connectStream(base, query);
    open.push(client);
    return client;
  };
  const head = async () => formatCursor(await headCursor(t.services.database.db));
  const settledHead = async () => {
    await publish.visible();
    return head();
  };

  beforeAll(async () => {
    t = await createTestApp({
      worker: false,
      config: { live: { ...testConfig().live, replayLimit: REPLAY_LIMIT } },
    });
    base = await listenOnLoopback(t.app);
    publish = publisher(t.services);
  });
  afterAll(async () => {
    await Promise.all(open.map((c) => c.close()));
    await t.close();
  });

  it('says hello with the current head of the log on connect', async () => {
    const owner = await publish.user('hello_owner');
    await publish.bodega('Hello Deli', owner);
    const last = await publish.visible();
    const client = await connect();
    expect(client.messages[0]).toEqual({ type: 'hello', cursor: formatCursor(last!) });
    expect(await head()).toBe(formatCursor(last!));
  });

  it('pushes each public event type as it happens, in log order, with what a map needs', async () => {
    const client = await connect();
    // One step at a time: photo messages carry the target's primary photo as it stands when sent.
    const step = async (action: () => Promise<unknown>) => {
      const before = client.events().length;
      const result = await action();
      await client.waitForEvents(before + 1);
      return result;
    };
    const ana = await publish.user('ana');
    const bodegaId = (await step(() => publish.bodega('Sunny Deli', ana))) as number;
    const catId = (await step(() => publish.cat(bodegaId, 'Mango', ana))) as number;
    await step(() => publish.renameCat(catId, 'Mango II'));
    await step(() => publish.review(ana, 'cat', catId, 5, 'Very good cat'));
    await step(() => publish.rating('cat', catId, 5, 1));
    const photoId = await publish.uploadPhoto(ana, 'cat', catId, 'mango-1');
    await step(() => publish.processPhoto(photoId, 'cat', catId));
    await step(() => publish.makePrimary(photoId, 'cat', catId));
    await step(() => publish.deletePhoto(photoId, 'cat', catId));
    await step(() => publish.renameBodega(bodegaId, 'Sunny Deli & Grill'));
    await step(() => publish.deleteCat(catId, bodegaId));
    await step(() => publish.deleteBodega(bodegaId));

    const events = client.events();
    expect(events.map((m) => m.type)).toEqual([
      'bodega.added',
      'cat.added',
      'cat.updated',
      'review.posted',
      'rating.updated',
      'photo.ready',
      'photo.primary',
      'photo.deleted',
      'bodega.updated',
      'cat.deleted',
      'bodega.deleted',
    ]);
    const [bodegaAdded, catAdded, catUpdated, review, rating, ready, primary, deleted] = events;
    const [bodegaUpdated, catDeleted, bodegaDeleted] = events.slice(8);
    for (const m of events) {
      expect(m.cursor).toMatch(/^\d+-\d+$/);
      expect(m.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect(bodegaAdded!.data).toEqual({
      id: bodegaId,
      ...bodegaFields('Sunny Deli'),
      cat_count: 0,
      rating: 0,
      review_count: 0,
      is_verified: false,
      primary_photo: null,
      primary_thumb: null,
      created_by: ana,
      created_at: bodegaAdded!.at,
    });
    expect(catAdded!.data).toEqual({
      id: catId,
      ...catFields('Mango'),
      bodega_id: bodegaId,
      bodega_name: 'Sunny Deli',
      address: bodegaFields('Sunny Deli').address,
      latitude: 40.7287,
      longitude: -74.0002,
      rating: 0,
      review_count: 0,
      primary_photo: null,
      primary_thumb: null,
      created_by: ana,
      created_at: catAdded!.at,
    });
    expect(catUpdated!.data).toEqual({ id: catId, ...catFields('Mango II') });
    expect(review!.data).toEqual({
      id: expect.any(Number),
      target_type: 'cat',
      target_id: catId,
      cat_id: catId,
      bodega_id: null,
      rating: 5,
      comment: 'Very good cat',
      created_at: review!.at,
      user: { id: ana, username: 'ana' },
    });
    expect(rating!.data).toEqual({ target_type: 'cat', target_id: catId, rating: 5, review_count: 1 });
    expect(ready!.data).toEqual({
      id: photoId,
      target_type: 'cat',
      target_id: catId,
      filename: 'mango-1',
      caption: 'On the counter',
      status: 'ready',
      url: '/uploads/cats/mango-1_large.webp',
      thumb_url: '/uploads/cats/mango-1_thumb.webp',
      width: 1280,
      height: 960,
      is_primary: true, // the first photo of a cat becomes its primary
      primary_photo: '/uploads/cats/mango-1_large.webp',
      primary_thumb: '/uploads/cats/mango-1_thumb.webp',
      uploaded_by: ana,
      created_at: expect.stringMatching(/Z$/),
    });
    expect(primary!.data).toEqual({
      id: photoId,
      target_type: 'cat',
      target_id: catId,
      primary_photo: '/uploads/cats/mango-1_large.webp',
      primary_thumb: '/uploads/cats/mango-1_thumb.webp',
    });
    expect(deleted!.data).toEqual({
      id: photoId,
      target_type: 'cat',
      target_id: catId,
      primary_photo: null,
      primary_thumb: null,
    });
    expect(bodegaUpdated!.data).toEqual({ id: bodegaId, ...bodegaFields('Sunny Deli & Grill') });
    const place = { latitude: 40.7287, longitude: -74.0002 };
    expect(catDeleted!.data).toEqual({ id: catId, bodega_id: bodegaId, ...place });
    expect(bodegaDeleted!.data).toEqual({ id: bodegaId, ...place });
  });

  it('never sends private events, storage paths or emails', async () => {
    const client = await connect();
    const bo = await publish.user('bo');
    const bodegaId = await publish.bodega('Quiet Deli', bo);
    const catId = await publish.cat(bodegaId, 'Shadow', bo);
    await publish.save(bo, 'cat', catId);
    const photoId = await publish.uploadPhoto(bo, 'cat', catId, 'shadow-1');
    await publish.review(bo, 'cat', catId, 4, 'Shy');
    await publish.processPhoto(photoId, 'cat', catId);
    const events = await client.waitForEvents(4);
    expect(events.map((m) => m.type)).toEqual(['bodega.added', 'cat.added', 'review.posted', 'photo.ready']);
    const everything = client.raw.join('\n');
    expect(everything).not.toContain('@private.example');
    expect(everything).not.toContain('/srv/private');
    expect(everything).not.toContain('password');
    expect(everything).not.toMatch(/ItemSaved|PhotoUploaded|saved/i);
  });

  it('resumes after a disconnect with what was created meanwhile: none missed, none repeated', async () => {
    const first = await connect();
    const cy = await publish.user('cy');
    const bodegaId = await publish.bodega('Resume Deli', cy);
    await publish.cat(bodegaId, 'Before');
    const seen = await first.waitForEvents(2);
    await first.close();

    const meanwhile = [
      await publish.cat(bodegaId, 'Meanwhile 1'),
      await publish.cat(bodegaId, 'Meanwhile 2'),
    ];
    await publish.save(cy, 'cat', meanwhile[0]!); // private, skipped in the replay too
    await publish.rating('bodega', bodegaId, 4, 2);

    const again = await connect(`?after=${seen.at(-1)!.cursor}`);
    const later = await publish.cat(bodegaId, 'After');
    const resumed = await again.waitForEvents(4);
    await new Promise((r) => setTimeout(r, 300)); // room for a duplicate to show up, if any would
    expect(again.events().map((m) => [m.type, m.data.id ?? m.data.target_id])).toEqual([
      ['cat.added', meanwhile[0]],
      ['cat.added', meanwhile[1]],
      ['rating.updated', bodegaId],
      ['cat.added', later],
    ]);
    expect(new Set(resumed.map((m) => m.cursor)).size).toBe(resumed.length);
    expect(seen.map((m) => m.cursor)).not.toContain(resumed[0]!.cursor);
  });

  it('replays a cat with its bodega as it was when the cat was added, then the later change', async () => {
    const before = await settledHead();
    const bodegaId = await publish.bodega('Old Name Deli');
    const catId = await publish.cat(bodegaId, 'Pepper');
    await publish.renameBodega(bodegaId, 'New Name Deli');
    const client = await connect(`?after=${before}`);
    const events = await client.waitForEvents(3);
    expect(events.map((m) => m.type)).toEqual(['bodega.added', 'cat.added', 'bodega.updated']);
    expect(events[1]!.data).toMatchObject({ id: catId, bodega_name: 'Old Name Deli' });
    expect(events[2]!.data).toMatchObject({ id: bodegaId, name: 'New Name Deli' });
  });

  it('sends reset with the head when the client is too far behind to replay, then follows live', async () => {
    const stale = await settledHead();
    const bodegaId = await publish.bodega('Busy Deli');
    for (let i = 0; i < REPLAY_LIMIT; i++) await publish.cat(bodegaId, `Crowd ${i}`);
    const now = await settledHead();
    const client = await connect(`?after=${stale}`);
    await client.waitFor((m) => m.some((x) => x.type === 'reset'));
    expect(client.messages.slice(0, 2)).toEqual([
      { type: 'hello', cursor: now },
      { type: 'reset', cursor: now },
    ]);
    const next = await publish.cat(bodegaId, 'Fresh');
    const events = await client.waitForEvents(1);
    expect(events.map((m) => [m.type, m.data.id])).toEqual([['cat.added', next]]);
  });

  it('replays exactly up to the bound without a reset', async () => {
    const from = await settledHead();
    const bodegaId = await publish.bodega('Edge Deli');
    for (let i = 1; i < REPLAY_LIMIT; i++) await publish.cat(bodegaId, `Edge ${i}`);
    const client = await connect(`?after=${from}`);
    const events = await client.waitForEvents(REPLAY_LIMIT);
    expect(client.messages.some((m) => m.type === 'reset')).toBe(false);
    expect(events).toHaveLength(REPLAY_LIMIT);
  });

  it('answers a cursor this log never gave out with reset', async () => {
    const client = await connect('?after=99999999999-99999999999');
    await client.waitFor((m) => m.some((x) => x.type === 'reset'));
    expect(client.messages[1]).toEqual({ type: 'reset', cursor: await head() });
  });

  it('refuses a malformed cursor with 400 before upgrading', async () => {
    const socket = new WebSocket(`${base}/api/stream?after=yesterday`);
    const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      socket.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      socket.on('open', () => reject(new Error('upgraded')));
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({
      code: 'invalid_input',
      details: { after: expect.any(String) },
    });
  });

  it('answers a plain HTTP request (no upgrade) in the error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/stream' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: expect.stringContaining('WebSocket'), code: 'not_found' });
  });
});
