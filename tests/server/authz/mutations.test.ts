// Who may change what: every mutating endpoint of API.md, called by each kind of caller, answers
// exactly the status the contract gives, and a refused call changes nothing.
//
// Callers: "signed out" (no token); "other user" (signed in, no relation to the item); "creator"
// (added the cat and its bodega); for photos also "uploader" (added the photo, not the item); for
// reviews "author" (wrote the review). Each row is one call against a freshly built world.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { changedTables, fingerprint } from '../../helpers/fingerprint.ts';
import { multipartForm } from '../../helpers/multipart-form.ts';
import { buildWorld, person, request, smallPng, type Person, type World } from '../../helpers/world.ts';

type Caller = 'signed out' | 'other user' | 'creator' | 'uploader' | 'author';

type Call = {
  method: InjectOptions['method'];
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
};

let serial = 0;
const unique = () => `${Date.now().toString(36)}${++serial}`;

async function photoForm() {
  return multipartForm([
    { name: 'photo', data: await smallPng(), filename: 'cat.png', contentType: 'image/png' },
  ]);
}

/** How to call each endpoint against a world. */
/** The world of one cell, with the bodega's name and address for calls that name it. */
type CellWorld = World & { bodegaName: string; bodegaAddress: string };

const CALLS: Record<string, (w: CellWorld) => Call | Promise<Call>> = {
  'POST /api/auth/register': () => {
    const name = `newbie_${unique()}`;
    return {
      method: 'POST',
      url: '/api/auth/register',
      body: { username: name, email: `${name}@example.test`, password: 'whiskers and milk' },
    };
  },
  // Names the creator's bodega, so "other user" adds a cat to someone else's shop.
  'POST /api/cats': (w) => ({
    method: 'POST',
    url: '/api/cats',
    body: { name: `Tom ${unique()}`, bodega_name: w.bodegaName, address: w.bodegaAddress },
  }),
  'PUT /api/cats/:id': (w) => ({
    method: 'PUT',
    url: `/api/cats/${w.catId}`,
    body: { name: 'Renamed', breed: 'Calico' },
  }),
  'DELETE /api/cats/:id': (w) => ({ method: 'DELETE', url: `/api/cats/${w.catId}` }),
  'POST /api/cats/:id/save': (w) => ({ method: 'POST', url: `/api/cats/${w.catId}/save` }),
  'DELETE /api/cats/:id/save': (w) => ({ method: 'DELETE', url: `/api/cats/${w.catId}/save` }),
  'POST /api/bodegas': () => ({
    method: 'POST',
    url: '/api/bodegas',
    body: { name: `Deli ${unique()}`, address: `${unique()} Main St` },
  }),
  'PUT /api/bodegas/:id': (w) => ({
    method: 'PUT',
    url: `/api/bodegas/${w.bodegaId}`,
    body: { name: 'Renamed Deli', address: w.bodegaAddress },
  }),
  'DELETE /api/bodegas/:id': (w) => ({ method: 'DELETE', url: `/api/bodegas/${w.bodegaId}` }),
  'POST /api/bodegas/:id/save': (w) => ({ method: 'POST', url: `/api/bodegas/${w.bodegaId}/save` }),
  'DELETE /api/bodegas/:id/save': (w) => ({ method: 'DELETE', url: `/api/bodegas/${w.bodegaId}/save` }),
  'POST /api/reviews': (w) => ({
    method: 'POST',
    url: '/api/reviews',
    body: { cat_id: w.catId, rating: 5, comment: 'Purrs' },
  }),
  'DELETE /api/reviews/:id': (w) => ({ method: 'DELETE', url: `/api/reviews/${w.catReviewId}` }),
  'DELETE /api/users/clear-recently-viewed': () => ({
    method: 'DELETE',
    url: '/api/users/clear-recently-viewed',
  }),
  'POST /api/photos/cats/:id/photos': async (w) => {
    const form = await photoForm();
    return {
      method: 'POST',
      url: `/api/photos/cats/${w.catId}/photos`,
      body: form.payload,
      headers: form.headers,
    };
  },
  'POST /api/photos/bodegas/:id/photos': async (w) => {
    const form = await photoForm();
    return {
      method: 'POST',
      url: `/api/photos/bodegas/${w.bodegaId}/photos`,
      body: form.payload,
      headers: form.headers,
    };
  },
  'PUT /api/photos/cats/:id/photos/:photoId/primary': (w) => ({
    method: 'PUT',
    url: `/api/photos/cats/${w.catId}/photos/${w.catPhotoId}/primary`,
  }),
  'PUT /api/photos/bodegas/:id/photos/:photoId/primary': (w) => ({
    method: 'PUT',
    url: `/api/photos/bodegas/${w.bodegaId}/photos/${w.bodegaPhotoId}/primary`,
  }),
  'DELETE /api/photos/cats/:id/photos/:photoId': (w) => ({
    method: 'DELETE',
    url: `/api/photos/cats/${w.catId}/photos/${w.catPhotoId}`,
  }),
  'DELETE /api/photos/bodegas/:id/photos/:photoId': (w) => ({
    method: 'DELETE',
    url: `/api/photos/bodegas/${w.bodegaId}/photos/${w.bodegaPhotoId}`,
  }),
};

type Endpoint = keyof typeof CALLS;

// One row per cell: endpoint, caller, the status API.md gives.
// prettier-ignore
const MATRIX: [Endpoint, Caller, number][] = [
  ['POST /api/auth/register',                              'signed out', 201],
  ['POST /api/auth/register',                              'other user', 201],

  ['POST /api/cats',                                       'signed out', 401],
  ['POST /api/cats',                                       'other user', 201],
  ['POST /api/cats',                                       'creator',    201],
  ['PUT /api/cats/:id',                                    'signed out', 401],
  ['PUT /api/cats/:id',                                    'other user', 403],
  ['PUT /api/cats/:id',                                    'creator',    200],
  ['DELETE /api/cats/:id',                                 'signed out', 401],
  ['DELETE /api/cats/:id',                                 'other user', 403],
  ['DELETE /api/cats/:id',                                 'creator',    200],
  ['POST /api/cats/:id/save',                              'signed out', 401],
  ['POST /api/cats/:id/save',                              'other user', 200],
  ['POST /api/cats/:id/save',                              'creator',    200],
  ['DELETE /api/cats/:id/save',                            'signed out', 401],
  ['DELETE /api/cats/:id/save',                            'other user', 200],
  ['DELETE /api/cats/:id/save',                            'creator',    200],

  ['POST /api/bodegas',                                    'signed out', 401],
  ['POST /api/bodegas',                                    'other user', 201],
  ['POST /api/bodegas',                                    'creator',    201],
  ['PUT /api/bodegas/:id',                                 'signed out', 401],
  ['PUT /api/bodegas/:id',                                 'other user', 403],
  ['PUT /api/bodegas/:id',                                 'creator',    200],
  ['DELETE /api/bodegas/:id',                              'signed out', 401],
  ['DELETE /api/bodegas/:id',                              'other user', 403],
  ['DELETE /api/bodegas/:id',                              'creator',    200],
  ['POST /api/bodegas/:id/save',                           'signed out', 401],
  ['POST /api/bodegas/:id/save',                           'other user', 200],
  ['POST /api/bodegas/:id/save',                           'creator',    200],
  ['DELETE /api/bodegas/:id/save',                         'signed out', 401],
  ['DELETE /api/bodegas/:id/save',                         'other user', 200],
  ['DELETE /api/bodegas/:id/save',                         'creator',    200],

  ['POST /api/reviews',                                    'signed out', 401],
  ['POST /api/reviews',                                    'other user', 201],
  ['POST /api/reviews',                                    'creator',    201],
  // Not in API.md's list; the route lets a review's author, and no one else, delete it.
  ['DELETE /api/reviews/:id',                              'signed out', 401],
  ['DELETE /api/reviews/:id',                              'other user', 403],
  ['DELETE /api/reviews/:id',                              'creator',    403],
  ['DELETE /api/reviews/:id',                              'author',     200],

  ['DELETE /api/users/clear-recently-viewed',              'signed out', 401],
  ['DELETE /api/users/clear-recently-viewed',              'other user', 200],
  ['DELETE /api/users/clear-recently-viewed',              'creator',    200],

  ['POST /api/photos/cats/:id/photos',                     'signed out', 401],
  ['POST /api/photos/cats/:id/photos',                     'other user', 201],
  ['POST /api/photos/cats/:id/photos',                     'creator',    201],
  ['POST /api/photos/bodegas/:id/photos',                  'signed out', 401],
  ['POST /api/photos/bodegas/:id/photos',                  'other user', 201],
  ['POST /api/photos/bodegas/:id/photos',                  'creator',    201],
  ['PUT /api/photos/cats/:id/photos/:photoId/primary',     'signed out', 401],
  ['PUT /api/photos/cats/:id/photos/:photoId/primary',     'other user', 403],
  ['PUT /api/photos/cats/:id/photos/:photoId/primary',     'uploader',   403],
  ['PUT /api/photos/cats/:id/photos/:photoId/primary',     'creator',    200],
  ['PUT /api/photos/bodegas/:id/photos/:photoId/primary',  'signed out', 401],
  ['PUT /api/photos/bodegas/:id/photos/:photoId/primary',  'other user', 403],
  ['PUT /api/photos/bodegas/:id/photos/:photoId/primary',  'uploader',   403],
  ['PUT /api/photos/bodegas/:id/photos/:photoId/primary',  'creator',    200],
  ['DELETE /api/photos/cats/:id/photos/:photoId',          'signed out', 401],
  ['DELETE /api/photos/cats/:id/photos/:photoId',          'other user', 403],
  ['DELETE /api/photos/cats/:id/photos/:photoId',          'uploader',   200],
  ['DELETE /api/photos/cats/:id/photos/:photoId',          'creator',    200],
  ['DELETE /api/photos/bodegas/:id/photos/:photoId',       'signed out', 401],
  ['DELETE /api/photos/bodegas/:id/photos/:photoId',       'other user', 403],
  ['DELETE /api/photos/bodegas/:id/photos/:photoId',       'uploader',   200],
  ['DELETE /api/photos/bodegas/:id/photos/:photoId',       'creator',    200],
];

let t: TestApp;
let uploadDir: string;
let people: Record<Exclude<Caller, 'signed out'>, Person>;

beforeAll(async () => {
  uploadDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-authz-'));
  t = await createTestApp({ worker: false, config: { uploadDir } });
  people = {
    creator: await person(t, 'creator'),
    uploader: await person(t, 'uploader'),
    author: await person(t, 'author'),
    'other user': await person(t, 'other'),
  };
});
afterAll(async () => {
  await t.close();
  await fs.rm(uploadDir, { recursive: true, force: true });
});

describe('authorization of every mutating endpoint', () => {
  it.each(MATRIX)('%s as %s → %i', async (endpoint, caller, expected) => {
    const built = await buildWorld(t, {
      creator: people.creator,
      uploader: people.uploader,
      reviewer: people.author,
    });
    const bodega = await request(t, 'GET', `/api/bodegas/${built.bodegaId}`);
    const world = {
      ...built,
      bodegaName: bodega.body.bodega.name,
      bodegaAddress: bodega.body.bodega.address,
    };
    const call = await CALLS[endpoint]!(world);
    const before = await fingerprint(t);

    const res = await request(t, call.method, call.url, {
      as: caller === 'signed out' ? null : people[caller],
      body: call.body,
      headers: call.headers,
    });

    expect({ status: res.status, body: res.body }).toMatchObject({ status: expected });
    if (expected >= 400) expect(changedTables(before, await fingerprint(t))).toEqual([]);
  });
});
