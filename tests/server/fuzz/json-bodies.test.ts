// Generated JSON (and not-quite-JSON) bodies against every endpoint: never a 5xx, every error in the
// contract's shape, and bodies the contract forbids change nothing.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { contentTypes, hugeString, junkValue, mutatedBody, notJson, poisonedBody } from './arbitraries.ts';
import { describeEndpoint, ENDPOINTS, JSON_BODY_ENDPOINTS, urlOf, type Endpoint } from './endpoints.ts';
import { check, fuzzSuite, runs, sendBatch, type Caller, type FuzzRequest } from './harness.ts';

const suite = fuzzSuite({ file: 'json-bodies', minimum: 2700 });

const anyCaller = fc.constantFrom<Caller>('signed out', 'creator', 'other user', 'newcomer', 'bad token');
const signedIn = fc.constantFrom<Caller>('creator', 'other user', 'newcomer');

function requestOf(
  e: Endpoint,
  caller: Caller,
  payload: string | Buffer | undefined,
  contentType?: string,
): FuzzRequest {
  const headers: Record<string, string> = {};
  const token = suite.app.tokenOf(caller);
  if (token) headers.authorization = `Bearer ${token}`;
  if (contentType !== undefined) headers['content-type'] = contentType;
  return { method: e.method, url: urlOf(e, suite.app.world), headers, payload };
}

const BATCH = { minLength: 1, maxLength: 10 };

/** Endpoints without a body ignore it, and sign-in checks passwords slowly on purpose. */
function anyBodyRuns(e: Endpoint): number {
  if (e.path === '/api/auth/login' || e.path === '/api/auth/register') return runs(8);
  return runs(e.body ? 25 : 4);
}

describe('bodies the contract forbids', () => {
  it.each(JSON_BODY_ENDPOINTS.map((e) => [describeEndpoint(e), e] as const))(
    '%s refuses valid-shaped bodies with unknown keys, whatever else they hold, and changes nothing',
    async (_name, e) => {
      const one = fc.record({
        caller: signedIn,
        body: mutatedBody(e.validBody!(suite.app.world), { extra: true }),
      });
      await check(
        describeEndpoint(e),
        fc.array(one, BATCH),
        async (batch) => {
          const requests = batch.map((r) =>
            requestOf(e, r.caller, JSON.stringify(r.body), 'application/json'),
          );
          await sendBatch(suite.app, requests, 'rejected');
        },
        runs(30),
      );
    },
  );

  it.each(JSON_BODY_ENDPOINTS.map((e) => [describeEndpoint(e), e] as const))(
    '%s refuses text that is not JSON, empty bodies and oversized ones, and changes nothing',
    async (_name, e) => {
      const payload = fc.oneof(
        notJson,
        fc.constant(''),
        hugeString.map((s) => JSON.stringify({ ...e.validBody!(suite.app.world), name: s })),
        fc.uint8Array({ minLength: 1, maxLength: 300 }).map((a) => Buffer.from(a)),
      );
      const one = fc.record({
        caller: anyCaller,
        payload,
        contentType: fc.option(contentTypes, { nil: undefined }),
      });
      await check(
        describeEndpoint(e),
        fc.array(one, BATCH),
        async (batch) => {
          const requests = batch.map((r) =>
            requestOf(e, r.caller, r.payload, r.contentType ?? 'application/json'),
          );
          await sendBatch(suite.app, requests, 'rejected');
        },
        runs(12),
      );
    },
  );
});

describe('any body at all', () => {
  it.each(ENDPOINTS.map((e) => [describeEndpoint(e), e] as const))(
    '%s answers every generated body without a server error',
    async (_name, e) => {
      const valid = e.validBody?.(suite.app.world) ?? { name: 'Whiskers' };
      const payload = fc.oneof(
        { weight: 6, arbitrary: poisonedBody(valid).map((b) => JSON.stringify(b)) },
        { weight: 3, arbitrary: mutatedBody(valid, { extra: false }).map((b) => JSON.stringify(b)) },
        { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
        { weight: 1, arbitrary: junkValue.map((v) => JSON.stringify(v) ?? 'null') },
        { weight: 1, arbitrary: notJson },
      );
      const one = fc.record({
        caller: fc.oneof({ weight: 3, arbitrary: signedIn }, { weight: 1, arbitrary: anyCaller }),
        payload,
        contentType: fc.oneof(
          { weight: 4, arbitrary: fc.constant('application/json') },
          { weight: 1, arbitrary: contentTypes },
        ),
      });
      await check(
        describeEndpoint(e),
        fc.array(one, BATCH),
        async (batch) => {
          await suite.app.keepWorld();
          await suite.app.welcomeNewcomer();
          await sendBatch(
            suite.app,
            batch.map((r) => requestOf(e, r.caller, r.payload, r.contentType)),
          );
        },
        anyBodyRuns(e),
      );
    },
  );
});
