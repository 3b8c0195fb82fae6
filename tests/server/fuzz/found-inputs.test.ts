// Inputs the fuzzers once found answered with a 5xx or outside the error contract, kept as plain
// examples so they stay fixed whatever seed the generators run with.
import { describe, expect, it } from 'vitest';
import { multipartForm } from '../../helpers/multipart-form.ts';
import { smallPng } from '../../helpers/world.ts';
import { checkAnswer, fuzzSuite, send, type FuzzRequest } from './harness.ts';

const suite = fuzzSuite();

const json = (token: string | null, body: unknown) => ({
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  payload: JSON.stringify(body),
});

async function uploadWithCaption(caption: string): Promise<FuzzRequest> {
  const form = multipartForm([
    { name: 'caption', value: caption },
    { name: 'photo', data: await smallPng(), filename: 'cat.png', contentType: 'image/png' },
  ]);
  return {
    method: 'POST',
    url: `/api/photos/cats/${suite.app.world.catId}/photos`,
    headers: { ...form.headers, authorization: `Bearer ${suite.app.tokenOf('newcomer')}` },
    payload: form.payload,
  };
}

// A filter holding a NUL names no label: an empty result or a 400 both keep the contract.
// prettier-ignore
const FOUND: [string, () => FuzzRequest | Promise<FuzzRequest>, number | number[]][] = [
  ['a path with a broken %-escape',             () => ({ method: 'GET', url: '/api/cats/%C0%AF' }), 400],
  ['a path segment longer than any id',         () => ({ method: 'GET', url: `/api/cats/${'7'.repeat(250)}` }), 404],
  ['an OPTIONS without Origin',                 () => ({ method: 'OPTIONS', url: '/api/cats', headers: { 'access-control-request-method': 'POST' } }), 204],
  ['a plain GET of the live stream',            () => ({ method: 'GET', url: '/api/stream' }), 404],
  ['a sign-in name with a NUL',                 () => ({ method: 'POST', url: '/api/auth/login', ...json(null, { username: 'tom\u0000', password: 'whiskers' }) }), 401],
  ['a review comment with a NUL',               () => ({ method: 'POST', url: '/api/reviews', ...json(suite.app.tokenOf('newcomer'), { cat_id: suite.app.world.catId, rating: 4, comment: 'good\u0000cat' }) }), 400],
  ['a review comment with a lone surrogate',    () => ({ method: 'POST', url: '/api/reviews', ...json(suite.app.tokenOf('newcomer'), { bodega_id: suite.app.world.bodegaId, rating: 4, comment: 'good\uDFFFcat' }) }), 400],
  ['a photo caption with a NUL',                () => uploadWithCaption('a\u0000cat'), 400],
  ['a breed filter with a NUL',                 () => ({ method: 'GET', url: '/api/search/cats?breed=tab%00by' }), [200, 400]],
  ['a personality filter with a NUL',           () => ({ method: 'GET', url: '/api/search/cats?personality=shy%00' }), [200, 400]],
  ['a nearby breed filter with a NUL',          () => ({ method: 'GET', url: '/api/search/nearby?lat=40.7&lng=-73.9&breed=%00' }), [200, 400]],
];

describe('inputs the fuzzers found', () => {
  const rows = FOUND.map(([name, build, expected]) => ({ name, build, expected }));
  it.each(rows)('$name → $expected', async ({ build, expected }) => {
    await suite.app.welcomeNewcomer();
    const req = await build();
    const res = await send(suite.app, req);
    checkAnswer(req, res);
    expect([expected].flat(), res.raw).toContain(res.status);
  });
});
