// Search with nothing cached: for each kind of query (plain text, text with a typo, text with
// filters, suggestions) distinct queries, each sent once to an api process whose search cache is
// off: first one at a time (median and p95 latency), then another set of them with 32 in flight
// (throughput). The baseline is the very same SQL those requests ran, sent straight to the database
// at the concurrency that gives it the most throughput (1 to 32 clients tried).
import http from 'node:http';
import type { Kysely, CompiledQuery } from 'kysely';
import pg from 'pg';
import type { DB } from '../../server/db/schema.ts';
import { searchBodegas } from '../../server/search/bodegas.ts';
import { searchCats } from '../../server/search/cats.ts';
import type { CatFilters } from '../../server/search/params.ts';
import { suggest } from '../../server/search/suggest.ts';
import { parseTextQuery } from '../../server/search/text.ts';
import { percentile, row, sendAsApp, statementsOf } from '../lib.ts';
import { coldQueries, type TextKind } from '../search-queries.ts';
import type { BenchRow } from '../types.ts';

export const CONNECTIONS = 32;
/**
 * Requests that warm the app before it is measured, sent CONNECTIONS at a time: its pool then has
 * its Postgres connections open, as the direct baseline's has (it opens them before its clock).
 */
export const WARM_REQUESTS = 2 * CONNECTIONS;
const DIRECT_CONCURRENCY = [1, 2, 4, 8, 16, 32];
const PAGE = { page: 1, perPage: 20 };
const NO_CAT_FILTERS: CatFilters = {
  breed: null,
  personality: null,
  isFriendly: null,
  rating: { min: null, max: null },
};
const NO_BODEGA_FILTERS = {
  catCount: { min: null, max: null },
  verifiedOnly: false,
  rating: { min: null, max: null },
};

export type Request = { path: string; run(db: Kysely<DB>): Promise<unknown> };
export type Kind = {
  name: string;
  p50Target: number;
  p95Target?: number;
  requests: Request[];
  /** How many of the requests go under load (default perKind): more give a steadier figure. */
  loaded?: number;
};

const enc = encodeURIComponent;

function textRequest({ q, type }: TextKind, filters?: { query: string; filters: CatFilters }): Request {
  const text = parseTextQuery(q);
  if (type === 'bodegas')
    return {
      path: `/api/search/bodegas?q=${enc(q)}`,
      run: (db) => searchBodegas(db, { text, filters: NO_BODEGA_FILTERS, circle: null, page: PAGE }),
    };
  return {
    path: `/api/search/cats?q=${enc(q)}${filters ? `&${filters.query}` : ''}`,
    run: (db) =>
      searchCats(db, { text, filters: filters?.filters ?? NO_CAT_FILTERS, circle: null, page: PAGE }),
  };
}

export function kinds(perKind: number): Kind[] {
  // Three disjoint sets per kind: one at a time, under load, and a few to warm the process.
  const q = coldQueries(2 * perKind + WARM_REQUESTS);
  return [
    { name: 'plain', p50Target: 8, p95Target: 25, requests: q.plain.map((t) => textRequest(t)) },
    { name: 'typo', p50Target: 8, p95Target: 25, requests: q.typo.map((t) => textRequest(t)) },
    {
      name: 'filtered',
      p50Target: 8,
      p95Target: 25,
      requests: q.filtered.map((f) => textRequest({ q: f.q, type: 'cats' }, f)),
    },
    {
      name: 'suggest',
      p50Target: 5,
      requests: q.suggest.map((typed) => ({
        path: `/api/search/suggest?q=${enc(typed)}`,
        run: (db: Kysely<DB>) => suggest(db, parseTextQuery(typed)!, 'all', 8),
      })),
    },
  ];
}

type Timed = { latencies: number[]; seconds: number; errors: number };

/** Runs `count` jobs with `concurrency` in flight, each once. */
async function runAll(count: number, concurrency: number, job: (n: number) => Promise<void>): Promise<Timed> {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      for (let n = next++; n < count; n = next++) {
        const t0 = performance.now();
        try {
          await job(n);
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  return {
    latencies: latencies.sort((a, b) => a - b),
    seconds: (performance.now() - started) / 1000,
    errors,
  };
}

/**
 * Keep-alive connections, as a browser or proxy keeps them. node:http rather than fetch: fetch
 * spends about twice the client CPU per request, which on a small machine is taken from the app
 * being measured, while the direct baseline's client (pg) is light.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

function httpGet(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.resume();
        res.once('end', () =>
          res.statusCode === 200 ? resolve() : reject(new Error(`${url}: ${res.statusCode}`)),
        );
        res.once('error', reject);
      })
      .once('error', reject);
  });
}

export async function httpRun(baseUrl: string, paths: string[], concurrency: number): Promise<Timed> {
  return runAll(paths.length, concurrency, (n) => httpGet(`${baseUrl}${paths[n]}`));
}

async function directRun(url: string, statements: CompiledQuery[][], concurrency: number): Promise<Timed> {
  const pool = new pg.Pool({ connectionString: url, max: concurrency });
  try {
    // Connections are opened before the clock starts, as the api's pool has them open.
    await Promise.all(Array.from({ length: concurrency }, () => pool.connect())).then((cs) =>
      cs.forEach((c) => c.release()),
    );
    return await runAll(statements.length, concurrency, async (n) => {
      const client = await pool.connect();
      try {
        for (const s of statements[n]!) await sendAsApp(client, s);
      } finally {
        client.release();
      }
    });
  } finally {
    await pool.end();
  }
}

const rps = (t: Timed) => t.latencies.length / t.seconds;

/**
 * One kind's distinct requests: `perKind` one at a time, `loaded` (default `perKind`) more with 32 in flight, the rest
 * (WARM_REQUESTS) first, to warm the process and open its pool's connections; against the same SQL sent directly (the map bench measures this way too).
 */
export async function measureKind(
  dbUrl: string,
  baseUrl: string,
  kind: Kind,
  perKind: number,
  scenario = 'search',
): Promise<BenchRow[]> {
  const single = kind.requests.slice(0, perKind);
  const loadedCount = kind.loaded ?? perKind;
  const loaded = kind.requests.slice(perKind, perKind + loadedCount);
  const warm = kind.requests.slice(perKind + loadedCount);
  await httpRun(
    baseUrl,
    warm.map((r) => r.path),
    CONNECTIONS,
  );
  const one = await httpRun(
    baseUrl,
    single.map((r) => r.path),
    1,
  );
  const api = await httpRun(
    baseUrl,
    loaded.map((r) => r.path),
    CONNECTIONS,
  );
  const statements: CompiledQuery[][] = [];
  for (const r of [...single, ...loaded]) statements.push(await statementsOf(dbUrl, r.run));
  const directOne = await directRun(dbUrl, statements.slice(0, perKind), 1);
  let best: { concurrency: number; timed: Timed } | null = null;
  for (const concurrency of DIRECT_CONCURRENCY) {
    const timed = await directRun(dbUrl, statements.slice(perKind), concurrency);
    if (!best || rps(timed) > rps(best.timed)) best = { concurrency, timed };
  }
  const errors = one.errors + api.errors + directOne.errors + best!.timed.errors;
  if (errors > 0) throw new Error(`cold ${kind.name}: ${errors} failed requests or statements`);
  const p50 = percentile(one.latencies, 50);
  const p95 = percentile(one.latencies, 95);
  const directP50 = percentile(directOne.latencies, 50);
  const directP95 = percentile(directOne.latencies, 95);
  const bestLabel = `direct SQL, best of 1-32 clients (${best!.concurrency})`;
  console.log(
    `   cold ${kind.name.padEnd(9)} 1 client p50 ${p50.toFixed(1)} p95 ${p95.toFixed(1)} ms (direct ${directP50.toFixed(1)} / ${directP95.toFixed(1)}) | ${CONNECTIONS} conns ${rps(api).toFixed(0)} req/s vs direct ${rps(best!.timed).toFixed(0)} at ${best!.concurrency} clients`,
  );
  const name = `cold ${kind.name} (${perKind} distinct queries, cache off)`;
  const single1 = 'direct SQL, 1 client';
  return [
    row(scenario, `${name}: 1 client p50`, 'ms', p50, directP50, single1, {
      text: `p50 <= ${kind.p50Target} ms`,
      pass: p50 <= kind.p50Target,
    }),
    row(
      scenario,
      `${name}: 1 client p95`,
      'ms',
      p95,
      directP95,
      single1,
      kind.p95Target === undefined
        ? undefined
        : { text: `p95 <= ${kind.p95Target} ms`, pass: p95 <= kind.p95Target },
    ),
    row(scenario, `${name}: ${CONNECTIONS} connections`, 'req/s', rps(api), rps(best!.timed), bestLabel, {
      text: 'API >= 0.5 x direct',
      pass: rps(api) >= 0.5 * rps(best!.timed),
    }),
  ];
}

export async function coldSearch(
  dbUrl: string,
  uncachedBaseUrl: string,
  perKind: number,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const kind of kinds(perKind)) rows.push(...(await measureKind(dbUrl, uncachedBaseUrl, kind, perKind)));
  return rows;
}
