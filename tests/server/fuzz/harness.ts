// What every fuzz suite shares: one app per file with a small world in it, requests sent with a
// deadline, the contract checks every answer must pass, and a fingerprint of the whole database to
// prove that rejected requests changed nothing.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { changedTables, fingerprint } from '../../helpers/fingerprint.ts';
import { storageMode } from '../../helpers/storage.ts';
import { buildWorld, person, type Person, type World } from '../../helpers/world.ts';

/** Fixed unless FUZZ_SEED is given, so a run in CI can be repeated exactly on a laptop. */
export const SEED = Number(process.env.FUZZ_SEED ?? 20261121);

/** FUZZ_SCALE=10 runs ten times as many cases (for a long local soak); the default fits CI. */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);

/** How many batches a property runs: the CI figure, scaled. */
export function runs(n: number): number {
  return Math.max(1, Math.round(n * SCALE));
}

/** A request is a hang when it has not answered in this long (PGlite on a slow machine included). */
const DEADLINE_MS = storageMode() === 'pglite' ? 20_000 : 10_000;

export type FuzzRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS' | 'PATCH' | 'HEAD';
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
};

export type Answer = { status: number; body: unknown; raw: string; contentType: string };

/** `newcomer` is someone who signed up just before the batch: no reviews, saves or views yet. */
export type Caller = 'signed out' | 'creator' | 'other user' | 'newcomer' | 'bad token';

export type FuzzApp = TestApp & {
  uploadDir: string;
  creator: Person;
  other: Person;
  world: World;
  /** Requests sent so far by this file, and how many got each status. */
  sent: number;
  statuses: Record<number, number>;
  /** The database's fingerprint when nothing has been sent since it was taken, else null. */
  known: Record<string, string> | null;
  tokenOf(caller: Caller): string | null;
  /** Signs up a new newcomer (call at the start of a batch). */
  welcomeNewcomer(): Promise<void>;
  /** Rebuilds the world if a generated request happened to delete part of it. */
  keepWorld(): Promise<void>;
};

const FORGED_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIiwidXNlcm5hbWUiOiJtYWxsb3J5In0.c2lnbmVkLXdpdGgtdGhlLXdyb25nLWtleQ';

async function createFuzzApp(): Promise<FuzzApp> {
  const uploadDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-fuzz-'));
  // No worker: nothing may change the database behind the requests' back.
  const t = await createTestApp({ worker: false, config: { uploadDir } });
  const creator = await person(t, 'creator');
  const other = await person(t, 'other');
  let newcomer = await person(t, 'newcomer');
  const fuzz: FuzzApp = {
    ...t,
    uploadDir,
    creator,
    other,
    world: await buildWorld(t, { creator, uploader: other, reviewer: creator }),
    sent: 0,
    statuses: {},
    known: null,
    tokenOf(caller) {
      if (caller === 'creator') return creator.token;
      if (caller === 'other user') return other.token;
      if (caller === 'newcomer') return newcomer.token;
      if (caller === 'bad token') return FORGED_TOKEN;
      return null;
    },
    async welcomeNewcomer() {
      fuzz.known = null;
      newcomer = await person(t, 'newcomer');
    },
    async keepWorld() {
      const { db } = t.services.database;
      const w = fuzz.world;
      const alive = await sql<{ n: number }>`
        select (select count(*) from cats where id = ${w.catId})
             + (select count(*) from bodegas where id = ${w.bodegaId})
             + (select count(*) from photos where id in (${w.catPhotoId}, ${w.bodegaPhotoId}))
             + (select count(*) from reviews where id in (${w.catReviewId}, ${w.bodegaReviewId})) as n`.execute(
        db,
      );
      if (Number(alive.rows[0]?.n) === 6) return;
      fuzz.known = null;
      fuzz.world = await buildWorld(t, { creator, uploader: other, reviewer: creator });
    },
    async close() {
      await t.close();
      await fs.rm(uploadDir, { recursive: true, force: true });
    },
  };
  return fuzz;
}

export type FuzzSuite = { readonly app: FuzzApp };

/**
 * One fuzz app for the calling test file: created before its first test and closed after its last.
 * With `counted`, the file's figures are printed then, and it fails under its minimum (see report).
 */
export function fuzzSuite(counted?: { file: string; minimum: number }): FuzzSuite {
  let app: FuzzApp | undefined;
  const startedAt = Date.now();
  beforeAll(async () => {
    app = await createFuzzApp();
  });
  afterAll(async () => {
    if (!app) return;
    await app.close();
    if (counted) report(app, counted.file, startedAt, counted.minimum);
  });
  return {
    get app() {
      if (!app) throw new Error('the fuzz suite has not started yet');
      return app;
    },
  };
}

function describeRequest(req: FuzzRequest): string {
  const payload =
    req.payload === undefined
      ? ''
      : ` body(${req.payload.length}): ${JSON.stringify(String(req.payload).slice(0, 600))}`;
  return `${req.method} ${req.url.slice(0, 300)} headers: ${JSON.stringify(req.headers ?? {}).slice(0, 500)}${payload}`;
}

/** Sends one request; a missing answer within the deadline fails as a hang. */
export async function send(f: FuzzApp, req: FuzzRequest): Promise<Answer> {
  f.sent++;
  f.known = null;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer in ${DEADLINE_MS} ms: ${describeRequest(req)}`)),
      DEADLINE_MS,
    );
  });
  try {
    const res = await Promise.race([
      f.app.inject({
        method: req.method,
        url: req.url,
        headers: req.headers,
        payload: req.payload as InjectOptions['payload'],
      }),
      deadline,
    ]);
    f.statuses[res.statusCode] = (f.statuses[res.statusCode] ?? 0) + 1;
    let body: unknown = undefined;
    try {
      body = JSON.parse(res.payload);
    } catch {}
    return {
      status: res.statusCode,
      body,
      raw: res.payload,
      contentType: String(res.headers['content-type'] ?? ''),
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What every answer owes the contract: never a 5xx, and every error is JSON of exactly the shape
 * `{ error: string, code: string, details? }`.
 */
export function checkAnswer(req: FuzzRequest, res: Answer): void {
  const fail = (why: string) => {
    throw new Error(
      `${why}\n  request: ${describeRequest(req)}\n  answer: ${res.status} ${res.raw.slice(0, 500)}`,
    );
  };
  if (res.status >= 500) fail(`server error ${res.status}`);
  // A HEAD answer carries the headers of the GET answer and no body.
  if (res.status < 400 || req.method === 'HEAD') return;
  if (!/^application\/json/.test(res.contentType)) fail(`error answer is not JSON (${res.contentType})`);
  const body = res.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return fail('error body is not an object');
  if (typeof body.error !== 'string' || body.error.length === 0) fail('error body has no "error" message');
  if (typeof body.code !== 'string' || body.code.length === 0) fail('error body has no "code"');
  const extra = Object.keys(body).filter((k) => !['error', 'code', 'details'].includes(k));
  if (extra.length > 0) fail(`error body has keys outside the contract: ${extra.join(', ')}`);
}

export async function sendAndCheck(f: FuzzApp, req: FuzzRequest): Promise<Answer> {
  const res = await send(f, req);
  checkAnswer(req, res);
  return res;
}

export function expectRejected(req: FuzzRequest, res: Answer): void {
  if (res.status < 400)
    throw new Error(
      `expected a 4xx, got ${res.status}\n  request: ${describeRequest(req)}\n  answer: ${res.raw.slice(0, 300)}`,
    );
}

/**
 * Sends a batch and checks every answer. When every request of the batch was rejected, the
 * database must be exactly as before it.
 */
export async function sendBatch(f: FuzzApp, batch: FuzzRequest[], expect: 'rejected' | 'any' = 'any') {
  const before = f.known ?? (await fingerprint(f));
  const answers: Answer[] = [];
  for (const req of batch) {
    const res = await sendAndCheck(f, req);
    if (expect === 'rejected') expectRejected(req, res);
    answers.push(res);
  }
  if (answers.every((a) => a.status >= 400)) {
    const after = await fingerprint(f);
    const changed = changedTables(before, after);
    f.known = after;
    if (changed.length > 0)
      throw new Error(
        `rejected requests changed ${changed.join(', ')}:\n${batch.map((r, i) => `  ${answers[i]!.status} ${describeRequest(r)}`).join('\n')}`,
      );
  }
  return answers;
}

/** Runs a property with the run's seed, and says how to repeat a failure. */
export async function check<T>(
  name: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  numRuns: number,
): Promise<void> {
  try {
    await fc.assert(fc.asyncProperty(arbitrary, predicate), {
      seed: SEED,
      numRuns,
      endOnFailure: true,
      includeErrorInReport: true,
    });
  } catch (error) {
    // Generated values can be megabytes long; the report keeps the start of each line.
    const message = (error instanceof Error ? error.message : String(error))
      .split('\n')
      .map((line) => (line.length > 1500 ? `${line.slice(0, 1500)}… (${line.length} characters)` : line))
      .join('\n');
    throw new Error(`${name} failed (seed ${SEED}; repeat with FUZZ_SEED=${SEED}):\n${message}`, {
      cause: error,
    });
  }
}

/**
 * Prints how many requests a file sent, how long it took and what came back (CI logs keep the
 * figures), and fails the file if it sent fewer than its share of the suite's 10,000.
 */
function report(f: FuzzApp, file: string, startedAt: number, minimum: number): void {
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  const statuses = Object.entries(f.statuses)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
  console.log(
    `fuzz ${file}: ${f.sent} requests in ${seconds} s (${storageMode()}, seed ${SEED}): ${statuses}`,
  );
  if (SCALE >= 1 && f.sent < minimum)
    throw new Error(`fuzz ${file} sent ${f.sent} requests, fewer than its ${minimum}`);
}
