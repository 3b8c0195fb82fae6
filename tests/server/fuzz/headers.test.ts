// Generated headers against every endpoint: garbage Authorization, wrong Content-Type, junk If-Match
// and Idempotency-Key, lying Content-Length, odd methods and CORS preflights.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { authorizationValue, contentTypes, headerValue } from './arbitraries.ts';
import { describeEndpoint, ENDPOINTS, urlOf, type Endpoint } from './endpoints.ts';
import { check, fuzzSuite, runs, sendBatch, type Caller, type FuzzRequest } from './harness.ts';

const suite = fuzzSuite({ file: 'headers', minimum: 3100 });

const HTTP_ENDPOINTS = ENDPOINTS;
const SIGNED_IN_WRITES = HTTP_ENDPOINTS.filter((e) => e.access === 'signed-in' && e.method !== 'GET');
const BATCH = { minLength: 1, maxLength: 10 };

function baseRequest(e: Endpoint): FuzzRequest {
  const req: FuzzRequest = { method: e.method, url: urlOf(e, suite.app.world), headers: {} };
  if (e.validBody) {
    req.headers!['content-type'] = 'application/json';
    req.payload = JSON.stringify(e.validBody(suite.app.world));
  }
  return req;
}

/** If-Match values that cannot name a version (a version is a whole number, maybe quoted). */
const notAVersion = headerValue.filter((v) => !/^\s*(W\/)?"?[0-9]{1,9}"?\s*$/.test(v));
/** Idempotency-Key values outside 1..200 characters. */
const badIdempotencyKey = fc.oneof(
  fc.constant(''),
  fc.integer({ min: 201, max: 4000 }).map((n) => 'k'.repeat(n)),
);
/** Anything that is not "Bearer <a token this server signed>". */
const notAToken = authorizationValue.filter(
  (v) => !v.includes(suite.app.creator.token) && !v.includes(suite.app.other.token),
);

describe('headers that must be refused', () => {
  it.each(SIGNED_IN_WRITES.map((e) => [describeEndpoint(e), e] as const))(
    '%s refuses garbage Authorization with a 401 and changes nothing',
    async (_name, e) => {
      await check(
        describeEndpoint(e),
        fc.array(notAToken, BATCH),
        async (values) => {
          await suite.app.keepWorld();
          const requests = values.map((authorization) => {
            const req = baseRequest(e);
            req.headers!.authorization = authorization;
            return req;
          });
          const answers = await sendBatch(suite.app, requests, 'rejected');
          answers.forEach((a, i) => {
            if (a.status !== 401)
              throw new Error(
                `expected 401 for Authorization ${JSON.stringify(values[i])}, got ${a.status} ${a.raw}`,
              );
          });
        },
        runs(8),
      );
    },
  );

  it.each(
    SIGNED_IN_WRITES.filter((e) => e.path === '/api/cats/:id' || e.path === '/api/bodegas/:id').map(
      (e) => [describeEndpoint(e), e] as const,
    ),
  )(
    '%s refuses an If-Match that is not a version (or a stale one), and changes nothing',
    async (_name, e) => {
      const ifMatch = fc.oneof(notAVersion, fc.integer({ min: 1000, max: 999_999_999 }).map(String));
      await check(
        describeEndpoint(e),
        fc.array(ifMatch, BATCH),
        async (values) => {
          await suite.app.keepWorld();
          const requests = values.map((value) => {
            const req = baseRequest(e);
            req.headers!.authorization = `Bearer ${suite.app.creator.token}`;
            req.headers!['if-match'] = value;
            return req;
          });
          const answers = await sendBatch(suite.app, requests, 'rejected');
          answers.forEach((a, i) => {
            if (a.status !== 400 && a.status !== 409)
              throw new Error(
                `expected 400 or 409 for If-Match ${JSON.stringify(values[i])}, got ${a.status} ${a.raw}`,
              );
          });
        },
        runs(10),
      );
    },
  );

  it.each(
    SIGNED_IN_WRITES.filter((e) => e.body !== 'multipart').map((e) => [describeEndpoint(e), e] as const),
  )('%s refuses an Idempotency-Key that is empty or too long, and changes nothing', async (_name, e) => {
    const one = fc.record({
      key: badIdempotencyKey,
      caller: fc.constantFrom<Caller>('creator', 'other user'),
    });
    await check(
      describeEndpoint(e),
      fc.array(one, { minLength: 1, maxLength: 4 }),
      async (batch) => {
        await suite.app.keepWorld();
        const requests = batch.map(({ key, caller }) => {
          const req = baseRequest(e);
          req.headers!.authorization = `Bearer ${suite.app.tokenOf(caller)}`;
          req.headers!['idempotency-key'] = key;
          return req;
        });
        await sendBatch(suite.app, requests, 'rejected');
      },
      runs(4),
    );
  });
});

const headerName = fc.oneof(
  fc.constantFrom(
    'authorization',
    'content-type',
    'if-match',
    'idempotency-key',
    'accept',
    'accept-encoding',
    'content-encoding',
    'x-request-id',
    'x-forwarded-for',
    'origin',
    'cache-control',
    'pragma',
    'cookie',
    'range',
    'expect',
  ),
  fc.stringMatching(/^x-[a-z0-9-]{1,20}$/),
);

describe('any headers at all', () => {
  it.each(HTTP_ENDPOINTS.map((e) => [describeEndpoint(e), e] as const))(
    '%s answers every mix of junk headers without a server error',
    async (_name, e) => {
      const junkHeaders = fc.record(
        {
          authorization: authorizationValue,
          'content-type': contentTypes,
          'if-match': headerValue,
          'idempotency-key': headerValue,
          others: fc.array(fc.tuple(headerName, headerValue), { maxLength: 4 }),
        },
        { requiredKeys: [] },
      );
      const one = fc.record({
        caller: fc.constantFrom<Caller>('signed out', 'creator', 'other user'),
        junk: junkHeaders,
      });
      await check(
        describeEndpoint(e),
        fc.array(one, BATCH),
        async (batch) => {
          await suite.app.keepWorld();
          const requests = batch.map(({ caller, junk }) => {
            const req = baseRequest(e);
            const token = suite.app.tokenOf(caller);
            if (token) req.headers!.authorization = `Bearer ${token}`;
            const { others, ...named } = junk;
            for (const [name, value] of others ?? []) req.headers![name] = value;
            Object.assign(req.headers!, named);
            return req;
          });
          await sendBatch(suite.app, requests);
        },
        runs(12),
      );
    },
  );

  it('answers CORS preflights, HEAD and unknown methods on every path without a server error', async () => {
    const one = fc.record({
      endpoint: fc.constantFrom(...HTTP_ENDPOINTS),
      method: fc.constantFrom<FuzzRequest['method']>('OPTIONS', 'HEAD', 'PATCH'),
      origin: fc.option(headerValue, { nil: undefined }),
      requestMethod: fc.option(
        fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE'), headerValue),
        {
          nil: undefined,
        },
      ),
      requestHeaders: fc.option(headerValue, { nil: undefined }),
    });
    await check(
      'preflights',
      fc.array(one, BATCH),
      async (batch) => {
        const requests = batch.map((r): FuzzRequest => {
          const headers: Record<string, string> = {};
          if (r.origin !== undefined) headers.origin = r.origin;
          if (r.requestMethod !== undefined) headers['access-control-request-method'] = r.requestMethod;
          if (r.requestHeaders !== undefined) headers['access-control-request-headers'] = r.requestHeaders;
          return { method: r.method, url: urlOf(r.endpoint, suite.app.world), headers };
        });
        await sendBatch(suite.app, requests, 'any');
      },
      runs(30),
    );
  });

  it('answers bodies whose Content-Length lies without hanging', async () => {
    const one = fc.record({
      endpoint: fc.constantFrom(...HTTP_ENDPOINTS.filter((e) => e.body === 'json')),
      length: fc.oneof(
        fc.constantFrom('0', '1', '-1', 'abc', '99999999999', '1.5', ''),
        fc.nat({ max: 5000 }).map(String),
      ),
      caller: fc.constantFrom<Caller>('signed out', 'creator'),
    });
    await check(
      'content-length',
      fc.array(one, BATCH),
      async (batch) => {
        await suite.app.keepWorld();
        const requests = batch.map((r) => {
          const req = baseRequest(r.endpoint);
          const token = suite.app.tokenOf(r.caller);
          if (token) req.headers!.authorization = `Bearer ${token}`;
          req.headers!['content-length'] = r.length;
          return req;
        });
        await sendBatch(suite.app, requests);
      },
      runs(15),
    );
  });
});
