// Generated path parameters and query strings: ids that are negative, huge, not numbers, traversal
// attempts or broken escapes; every search and paging parameter with junk, repeated and unknown.
import fc from 'fast-check';
import WebSocket from 'ws';
import { describe, it } from 'vitest';
import { junkId, junkQueryValue, percentEncode, withPoisonChar } from './arbitraries.ts';
import { describeEndpoint, ID_ENDPOINTS, QUERY_ENDPOINTS, urlOf, type Endpoint } from './endpoints.ts';
import { check, fuzzSuite, runs, sendBatch, type Caller, type FuzzRequest } from './harness.ts';

const suite = fuzzSuite({ file: 'paths-and-queries', minimum: 3800 });

const anyCaller = fc.constantFrom<Caller>('signed out', 'creator', 'other user', 'bad token');
const BATCH = { minLength: 1, maxLength: 10 };

function requestOf(e: Endpoint, caller: Caller, url: string): FuzzRequest {
  const headers: Record<string, string> = {};
  const token = suite.app.tokenOf(caller);
  if (token) headers.authorization = `Bearer ${token}`;
  const req: FuzzRequest = { method: e.method, url, headers };
  // A valid body, so that only the path can be what is wrong.
  if (e.validBody) {
    headers['content-type'] = 'application/json';
    req.payload = JSON.stringify(e.validBody(suite.app.world));
  }
  return req;
}

/** Junk that the routes could still read as the id of something in the world ("00001" is 1). */
const namesNothingReal = (segment: string) => !/^0*[1-9][0-9]{0,5}$/.test(segment);

/** A numeric id that names nothing in this database (but is well formed). */
const absentId = fc.integer({ min: 1_000_000, max: 999_999_999_999_999 }).map(String);

describe('path parameters', () => {
  it.each(ID_ENDPOINTS.map((e) => [describeEndpoint(e), e] as const))(
    '%s answers junk ids with a 4xx and changes nothing',
    async (_name, e) => {
      const one = fc.record({
        caller: anyCaller,
        id: fc.oneof(junkId.filter(namesNothingReal), absentId),
        photoId: fc.option(fc.oneof(junkId, absentId), { nil: undefined }),
      });
      await check(
        describeEndpoint(e),
        fc.array(one, BATCH),
        async (batch) => {
          await suite.app.keepWorld();
          const requests = batch.map((r) =>
            requestOf(e, r.caller, urlOf(e, suite.app.world, { id: r.id, photoId: r.photoId })),
          );
          await sendBatch(suite.app, requests, 'rejected');
        },
        runs(15),
      );
    },
  );

  it.each(
    ID_ENDPOINTS.filter((e) => e.path.includes(':photoId')).map((e) => [describeEndpoint(e), e] as const),
  )('%s answers junk photo ids of a real item with a 4xx and changes nothing', async (_name, e) => {
    const one = fc.record({
      caller: anyCaller,
      photoId: fc.oneof(junkId.filter(namesNothingReal), absentId),
    });
    await check(
      describeEndpoint(e),
      fc.array(one, BATCH),
      async (batch) => {
        await suite.app.keepWorld();
        const requests = batch.map((r) =>
          requestOf(e, r.caller, urlOf(e, suite.app.world, { photoId: r.photoId })),
        );
        await sendBatch(suite.app, requests, 'rejected');
      },
      runs(10),
    );
  });

  it('answers paths outside the contract with a 4xx in the contract shape', async () => {
    const segment = fc.oneof(
      junkId,
      fc.constantFrom('api', 'cats', 'bodegas', 'photos', 'uploads', 'originals', '', '.', '..'),
    );
    const path = fc.oneof(
      fc.array(segment, { minLength: 1, maxLength: 6 }).map((s) => `/api/${s.join('/')}`),
      fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/uploads/${s.join('/')}`),
      fc.constantFrom(
        '/uploads/originals/x.jpg',
        '/uploads/cats/../originals/x.jpg',
        '/uploads/cats/%2e%2e%2foriginals%2fx.jpg',
        '/uploads/cats/x_large.webp%00.jpg',
        '//api//cats',
        '/api/cats/1/2/3',
        '/api/%2e%2e/%2e%2e/etc/passwd',
        '/api/search/nearby/..',
      ),
    );
    const one = fc.record({
      caller: anyCaller,
      method: fc.constantFrom<FuzzRequest['method']>('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
      path,
    });
    await check(
      'paths outside the contract',
      fc.array(one, BATCH),
      async (batch) => {
        const requests = batch.map((r): FuzzRequest => {
          const token = suite.app.tokenOf(r.caller);
          return {
            method: r.method,
            url: r.path,
            headers: token ? { authorization: `Bearer ${token}` } : {},
          };
        });
        // Some of these name real routes (a GET of a cat id, say): any answer but a 5xx will do.
        await sendBatch(suite.app, requests);
      },
      runs(60),
    );
  });
});

/** A value a real client might send for the parameter (not yet encoded), so junk elsewhere reaches deeper code. */
function plausible(param: string): fc.Arbitrary<string> {
  switch (param) {
    case 'lat':
      return fc.double({ min: -90, max: 90, noNaN: true }).map(String);
    case 'lng':
      return fc.double({ min: -180, max: 180, noNaN: true }).map(String);
    case 'radius':
      return fc.double({ min: 0.01, max: 50, noNaN: true }).map(String);
    case 'type':
      return fc.constantFrom('cats', 'bodegas');
    case 'page':
      return fc.integer({ min: 1, max: 100000 }).map(String);
    case 'per_page':
      return fc.integer({ min: 1, max: 100 }).map(String);
    case 'min_rating':
    case 'max_rating':
      return fc.double({ min: 0, max: 5, noNaN: true }).map(String);
    case 'min_cats':
    case 'max_cats':
      return fc.integer({ min: 0, max: 100 }).map(String);
    case 'is_friendly':
    case 'verified_only':
      return fc.constantFrom('true', 'false');
    case 'after':
      return fc.tuple(fc.bigInt({ min: 0n, max: 2n ** 64n }), fc.nat()).map(([x, p]) => `${x}-${p}`);
    default:
      return fc.oneof(
        fc.constantFrom(
          'tabby',
          'whiskers tabby',
          'Tabby',
          'corner deli',
          'brodway',
          'cat & deli',
          '"quoted"',
          '*',
          '%',
          '!!!',
        ),
        fc.string({ unit: 'grapheme', maxLength: 30 }),
      );
  }
}

const UNKNOWN_PARAMS = [
  'sort',
  'limit',
  'offset',
  'id',
  'user_id',
  '__proto__',
  'constructor',
  'q[]',
  'page[0]',
  'a.b',
  '',
  '%00',
];

describe('query strings', () => {
  it.each(QUERY_ENDPOINTS.map((e) => [describeEndpoint(e), e] as const))(
    '%s answers every mix of junk, repeated and unknown parameters without a server error',
    async (_name, e) => {
      const params = e.query!;
      const pair = fc.oneof(
        { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...params), junkQueryValue) },
        {
          weight: 3,
          arbitrary: fc
            .constantFrom(...params)
            .chain((p) => fc.tuple(fc.constant(p), plausible(p).map(percentEncode))),
        },
        {
          weight: 3,
          arbitrary: fc
            .constantFrom(...params)
            .chain((p) => fc.tuple(fc.constant(p), plausible(p).chain(withPoisonChar).map(percentEncode))),
        },
        { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...UNKNOWN_PARAMS), junkQueryValue) },
      );
      const query = fc.oneof(
        {
          weight: 6,
          arbitrary: fc
            .array(pair, { maxLength: 8 })
            .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&')),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '&&&',
            '=',
            '==',
            'q',
            'q&q&q',
            '?',
            '#x',
            'page=1&page=2',
            'q=%',
            'q=%E0%A4%A',
          ),
        },
      );
      const one = fc.record({ caller: anyCaller, query });
      await check(
        describeEndpoint(e),
        fc.array(one, BATCH),
        async (batch) => {
          await suite.app.keepWorld();
          await sendBatch(
            suite.app,
            batch.map((r) => requestOf(e, r.caller, `${urlOf(e, suite.app.world)}?${r.query}`)),
          );
        },
        runs(40),
      );
    },
  );

  it.each(QUERY_ENDPOINTS.map((e) => [describeEndpoint(e), e] as const))(
    '%s refuses out-of-range numbers and words where numbers go with a 400',
    async (_name, e) => {
      const numeric = e.query!.filter((p) => !['q', 'breed', 'personality', 'type'].includes(p));
      const bad = fc.constantFrom(
        '-1',
        '0.5.5',
        'abc',
        '1e400',
        '101',
        '100001',
        '-0.0001',
        '5.0001',
        'NaN',
        'Infinity',
        '[]',
      );
      const one = fc
        .record({
          caller: anyCaller,
          param: fc.constantFrom(...numeric),
          value: bad,
        })
        .filter(({ param, value }) => !isAcceptable(param, value));
      await check(
        describeEndpoint(e),
        fc.array(one, BATCH),
        async (batch) => {
          const requests = batch.map((r) => {
            const base =
              e.path === '/api/search/nearby' && !['lat', 'lng'].includes(r.param)
                ? 'lat=40.7&lng=-73.9&'
                : '';
            return requestOf(e, r.caller, `${urlOf(e, suite.app.world)}?${base}${r.param}=${r.value}`);
          });
          const answers = await sendBatch(suite.app, requests, 'rejected');
          answers.forEach((a, i) => {
            if (a.status !== 400 && a.status !== 401)
              throw new Error(`expected 400 for ${requests[i]!.url}, got ${a.status} ${a.raw}`);
          });
        },
        runs(10),
      );
    },
  );
});

/** The few junk values that are in fact in range for a parameter. */
function isAcceptable(param: string, value: string): boolean {
  const n = Number(value);
  if (value === '[]' || Number.isNaN(n) || !Number.isFinite(n)) return false;
  const ranges: Record<string, [number, number, boolean]> = {
    page: [1, 100000, true],
    per_page: [1, 100, true],
    min_rating: [0, 5, false],
    max_rating: [0, 5, false],
    min_cats: [0, 100, true],
    max_cats: [0, 100, true],
    lat: [-90, 90, false],
    lng: [-180, 180, false],
    radius: [0.0000001, 50, false],
    is_friendly: [1, 0, false],
    verified_only: [1, 0, false],
  };
  const range = ranges[param];
  if (!range) return false;
  const [min, max, integer] = range;
  return n >= min && n <= max && (!integer || Number.isInteger(n));
}

type StreamOutcome = { refused: number } | { first: string } | { closed: number };

/** The stream is a WebSocket, which app.inject cannot open: the app also listens on loopback. */
let streamBase: string | null = null;

/** Opens the live stream and waits for its first word: a message, a close or a refusal. */
async function firstWordOfStream(query: string): Promise<StreamOutcome> {
  suite.app.sent++;
  streamBase ??= (await suite.app.app.listen({ port: 0, host: '127.0.0.1' })).replace(/^http/, 'ws');
  const socket = new WebSocket(`${streamBase}/api/stream?${query}`);
  try {
    return await new Promise<StreamOutcome>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the stream said nothing for 10 s (?${query})`)),
        10_000,
      );
      const done = (outcome: StreamOutcome) => (clearTimeout(timer), resolve(outcome));
      socket.once('unexpected-response', (_req, res) => done({ refused: res.statusCode ?? 0 }));
      socket.once('message', (data) => done({ first: String(data) }));
      socket.once('close', (code) => done({ closed: code }));
      socket.once('error', (error) => (clearTimeout(timer), reject(error)));
    });
  } finally {
    socket.terminate();
  }
}

describe('live stream cursors', () => {
  it('answers every generated after= cursor with a hello or reset, or a 4xx refusal', async () => {
    const after = fc.oneof(
      plausible('after'),
      fc.constantFrom(
        '0-0',
        '1-1',
        '18446744073709551615-0',
        '99999999999999999999-99999999999999999999',
        '-1-1',
        '1-',
        '-',
      ),
      junkQueryValue,
    );
    const query = fc.oneof(
      { weight: 4, arbitrary: after.map((a) => `after=${percentEncode(a)}`) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(after, after)
          .map(([a, b]) => `after=${percentEncode(a)}&after=${percentEncode(b)}`),
      },
      { weight: 1, arbitrary: junkQueryValue.map((v) => `cursor=${v}`) },
    );
    await check(
      'stream cursors',
      fc.array(query, { minLength: 1, maxLength: 5 }),
      async (queries) => {
        for (const q of queries) {
          const outcome = await firstWordOfStream(q);
          if ('refused' in outcome && (outcome.refused < 400 || outcome.refused >= 500))
            throw new Error(`?${q} was refused with ${outcome.refused}`);
          if ('closed' in outcome) throw new Error(`?${q} was closed at once (${outcome.closed})`);
          if ('first' in outcome) {
            const type = (JSON.parse(outcome.first) as { type?: string }).type;
            if (type !== 'hello') throw new Error(`?${q} began with ${outcome.first}`);
          }
        }
      },
      runs(20),
    );
  });
});
