// The live stream never shows hidden or deleted content: not live (a review, a photo or an edit of
// a hidden cat), and not to a socket that resumes from before the content was hidden, deleted by
// its author, or went with its author's account. Through HTTP writes and a real WebSocket.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '../../../server/moderation/roles.ts';
import { multipartForm } from '../../helpers/multipart-form.ts';
import { storageMode } from '../../helpers/storage.ts';
import { person, request, smallPng, type Person } from '../../helpers/world.ts';
import { createPhotoTestApp, type PhotoTestApp } from '../photos/helpers.ts';
import { connectStream, listenOnLoopback, type StreamClient, type StreamMessage } from './stream-client.ts';

let t: PhotoTestApp;
let base: string;
let creator: Person;
let reviewer: Person;
let uploader: Person;
let moderator: Person;
const open: StreamClient[] = [];

beforeAll(async () => {
  t = await createPhotoTestApp();
  base = await listenOnLoopback(t.app);
  const people = await Promise.all(
    ['creator', 'reviewer', 'uploader', 'moderator'].map((name) => person(t, name)),
  );
  [creator, reviewer, uploader, moderator] = people as [Person, Person, Person, Person];
  await setRole(t.services, moderator.username, 'moderator');
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await t?.close();
});

const connect = async (query = '') => {
  const client = await connectStream(base, query);
  open.push(client);
  return client;
};
const helloOf = (client: StreamClient) => client.messages.find((m) => m.type === 'hello')!.cursor!;
/** Text no other test writes, to look for in everything a socket received. */
const secret = (label: string) => `${label} ${randomBytes(6).toString('hex')}`;

async function addCat(label: string) {
  const res = await request(t, 'POST', '/api/cats', {
    as: creator,
    body: {
      name: `${label} cat`,
      bodega_name: `${label} Deli`,
      address: '1 Avenue C, New York, NY',
      latitude: 40.72,
      longitude: -73.98,
    },
  });
  expect(res.status).toBe(201);
  return { catId: res.body.cat.id as number, bodegaId: res.body.bodega.id as number };
}

async function review(as: Person, catId: number, comment: string): Promise<number> {
  const res = await request(t, 'POST', '/api/reviews', { as, body: { cat_id: catId, rating: 2, comment } });
  expect(res.status).toBe(201);
  return res.body.review.id;
}

/** Uploads a photo with a caption and waits until the worker has processed it. */
async function photo(as: Person, catId: number, caption: string): Promise<number> {
  const form = multipartForm([
    { name: 'photo', filename: 'cat.png', contentType: 'image/png', data: await smallPng() },
    { name: 'caption', value: caption },
  ]);
  const res = await request(t, 'POST', `/api/photos/cats/${catId}/photos`, {
    as,
    body: form.payload,
    headers: form.headers,
  });
  expect(res.status).toBe(201);
  await t.settle();
  return res.body.photo.id;
}

async function editCat(catId: number, name: string) {
  expect((await request(t, 'PUT', `/api/cats/${catId}`, { as: creator, body: { name } })).status).toBe(200);
}

async function decide(type: string, id: number, action: 'hide' | 'restore') {
  const res = await request(t, 'POST', `/api/moderation/${type}/${id}`, { as: moderator, body: { action } });
  expect(res.status).toBe(200);
}

/** A new visible cat; once a socket has it, it has everything logged before it. */
async function marker(clients: StreamClient[], label: string): Promise<number> {
  await t.settle();
  const { catId } = await addCat(label);
  await Promise.all(clients.map((c) => c.waitFor(() => added(c, catId))));
  return catId;
}

const added = (client: StreamClient, catId: number) =>
  client.events().some((m) => m.type === 'cat.added' && m.data.id === catId);

/** The messages about a cat's content: its own, its reviews', photos' and rating's (not moderation's). */
const about = (catId: number) => (m: StreamMessage) => {
  if (m.type.startsWith('content.')) return false;
  if (m.type.startsWith('cat.')) return m.data.id === catId;
  return m.data?.target_type === 'cat' && m.data.target_id === catId;
};

describe('live', () => {
  it('sends nothing about a hidden cat: not a review, a photo or an edit of it; only content.hidden', async () => {
    const client = await connect();
    const { catId } = await addCat('Hidden');
    // Heard while still shown (had the hiding come first, even this would be withheld).
    await client.waitFor(() => added(client, catId));
    await decide('cat', catId, 'hide');
    await client.waitFor(() => client.events().some((m) => m.type === 'content.hidden'));
    // Its creator may still write on it; nothing of what they write reaches the public stream.
    const words = secret('Hidden from the stream');
    await review(creator, catId, `Review: ${words}`);
    await photo(creator, catId, `Caption: ${words}`);
    await editCat(catId, `Renamed ${words}`.slice(0, 60));
    await marker([client], 'After the hiding');

    expect(client.raw.join('\n')).not.toContain(words.split(' ').at(-1));
    expect(
      client
        .events()
        .filter(about(catId))
        .map((m) => m.type),
    ).toEqual(['cat.added']);
    expect(client.events().filter((m) => m.type.startsWith('content.'))).toEqual([
      expect.objectContaining({ type: 'content.hidden', data: { target_type: 'cat', target_id: catId } }),
    ]);
  });

  it.skipIf(storageMode() !== 'postgres')(
    'sends nothing of a review whose cat was hidden before the broadcaster reached the review',
    async () => {
      const client = await connect();
      const { catId } = await addCat('Raced');
      await client.waitFor(() => added(client, catId));
      // An open transaction holds the log's horizon: the broadcaster reads nothing past it.
      const hold = new pg.Client({ connectionString: t.databaseUrl! });
      await hold.connect();
      const words = secret('Overtaken by the hiding');
      try {
        await hold.query('begin');
        await hold.query('select pg_current_xact_id()');
        await review(reviewer, catId, `Review: ${words}`);
        await decide('cat', catId, 'hide');
      } finally {
        await hold.query('commit');
        await hold.end();
      }
      await marker([client], 'After the race');
      expect(client.raw.join('\n')).not.toContain(words.split(' ').at(-1));
      expect(
        client
          .events()
          .filter(about(catId))
          .map((m) => m.type),
      ).toEqual(['cat.added']);
      expect(client.events().some((m) => m.type === 'content.hidden' && m.data.target_id === catId)).toBe(
        true,
      );
    },
  );
});

describe('a socket resuming from before', () => {
  it('a hide gets content.hidden and none of the hidden cat, nor the hidden review', async () => {
    const from = helloOf(await connect());
    const hidden = await addCat('Soon hidden');
    const shown = await addCat('Still shown');
    const words = secret('Hidden since');
    await review(reviewer, hidden.catId, `Cat review: ${words}`);
    await photo(uploader, hidden.catId, `Cat caption: ${words}`);
    await editCat(hidden.catId, `Edited ${words}`.slice(0, 60));
    const hiddenReview = await review(reviewer, shown.catId, `Review: ${words}`);
    const kept = await review(uploader, shown.catId, 'A kind word');
    await decide('cat', hidden.catId, 'hide');
    await decide('review', hiddenReview, 'hide');
    const watcher = await connect(`?after=${from}`);
    await marker([watcher], 'After the hide');

    expect(watcher.raw.join('\n')).not.toContain(words.split(' ').at(-1));
    expect(watcher.events().filter(about(hidden.catId))).toEqual([]);
    // (An earlier test's may come first: the head can lag behind this database's writes.)
    const ours = [`cat ${hidden.catId}`, `review ${hiddenReview}`];
    const moderation = watcher
      .events()
      .filter(
        (m) => m.type === 'content.hidden' && ours.includes(`${m.data.target_type} ${m.data.target_id}`),
      );
    expect(moderation.map((m) => m.data)).toEqual([
      { target_type: 'cat', target_id: hidden.catId },
      { target_type: 'review', target_id: hiddenReview },
    ]);
    // What is still shown still comes: the other cat, its visible review and its rating.
    const visible = watcher.events().filter(about(shown.catId));
    expect(visible.map((m) => [m.type, m.data.id ?? null])).toEqual(
      expect.arrayContaining([
        ['cat.added', shown.catId],
        ['review.posted', kept],
      ]),
    );
    expect(visible.some((m) => m.type === 'rating.updated')).toBe(true);
  });

  it('a review its author deleted gets nothing of the review', async () => {
    const from = helloOf(await connect());
    const { catId } = await addCat('Deleted review');
    const words = secret('Said then unsaid');
    const reviewId = await review(reviewer, catId, `Review: ${words}`);
    expect((await request(t, 'DELETE', `/api/reviews/${reviewId}`, { as: reviewer })).status).toBe(200);
    const watcher = await connect(`?after=${from}`);
    await marker([watcher], 'After the delete');

    expect(watcher.raw.join('\n')).not.toContain(words.split(' ').at(-1));
    expect(watcher.events().some((m) => m.type === 'review.posted' && m.data.id === reviewId)).toBe(false);
    expect(watcher.events().some((m) => m.type === 'cat.added' && m.data.id === catId)).toBe(true);
  });

  it("an account deletion gets none of the person's reviews, captions or name", async () => {
    const password = 'a long enough password';
    const name = `leaver_${randomBytes(4).toString('hex')}`;
    const registered = await request(t, 'POST', '/api/auth/register', {
      body: { username: name, email: `${name}@example.test`, password },
    });
    expect(registered.status).toBe(201);
    const leaver: Person = {
      id: registered.body.user.id,
      username: name,
      token: registered.body.access_token,
    };
    // A socket follows along, so the broadcaster builds (and keeps) the frames as they happen.
    const live = await connect();
    const from = helloOf(live);
    const { catId } = await addCat('Left behind');
    const words = secret('Written by the leaver');
    await review(leaver, catId, `Review: ${words}`);
    await photo(leaver, catId, `Caption: ${words}`);
    await marker([live], 'Before the deletion');
    expect(live.raw.join('\n')).toContain(words.split(' ').at(-1));

    // On Postgres, a transaction holds the log's horizon from before the deletion: the broadcaster
    // has not consumed it yet when the socket resumes, the hardest case for what it has kept.
    const hold = storageMode() === 'postgres' ? new pg.Client({ connectionString: t.databaseUrl! }) : null;
    try {
      if (hold) {
        await hold.connect();
        await hold.query('begin');
        await hold.query('select pg_current_xact_id()');
      }
      const deleted = await request(t, 'DELETE', '/api/auth/account', { as: leaver, body: { password } });
      expect(deleted.status).toBe(200);
      const watcher = await connect(`?after=${from}`);
      await watcher.waitFor(() =>
        watcher.events().some((m) => m.type === 'cat.added' && m.data.id === catId),
      );
      // Everything up to the marker is replayed in one go, in log order.
      const markerId = live
        .events()
        .filter((m) => m.type === 'cat.added')
        .at(-1)!.data.id;
      await watcher.waitFor(() => added(watcher, markerId));

      const everything = watcher.raw.join('\n');
      expect(everything).not.toContain(words.split(' ').at(-1));
      expect(everything).not.toContain(name);
      expect(
        watcher
          .events()
          .filter(about(catId))
          .map((m) => m.type),
      ).not.toContain('photo.ready');
    } finally {
      await hold?.query('commit');
      await hold?.end();
    }
  });
});
