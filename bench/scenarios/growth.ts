// Growth: the same city at 10,000, 100,000 and 1,000,000 cats (10,000 and 100,000 with --quick),
// each in a fresh database, all dropped at the end. Each size's log is written with COPY
// (growth-log.ts) and every read table is built from it by the app's own replay, whose rate is
// measured. Then a real api process per size (`main.ts api`, search cache off), after the same
// warm-up, serves the same distinct cold searches (plain, typo, filtered), suggestions and map
// boxes (three views, with and without a filter), one at a time, the sizes taking turns: medians
// and p95 against the very same SQL sent directly by one client. Then each process's resident
// memory, and each database's size. The rows that judge growth are ratios of a size to the one ten
// times smaller.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../server/config.ts';
import { projections } from '../../server/domains.ts';
import { useDataKey } from '../../server/events/personal.ts';
import { replay } from '../../server/events/replay.ts';
import { copyGrowthLog } from '../growth-log.ts';
import {
  BENCH_DATA_KEY,
  BENCH_REDIS_URL,
  createBenchDatabase,
  percentile,
  type BenchDatabase,
  row,
  sendAsApp,
  statementsOf,
} from '../lib.ts';
import type { BenchRow, Scenario } from '../types.ts';
import { requests as mapRequests, VIEWS } from './map.ts';
import { CONNECTIONS, httpRun, kinds as searchKinds, type Request } from './search-cold.ts';

const FULL_SIZES = [10_000, 100_000, 1_000_000];
const QUICK_SIZES = [10_000, 100_000];
/** Distinct requests of each kind measured one at a time, the same ones at every size. */
const PER_KIND = 200;
/** Other requests of each kind the api serves first (32 in flight), the same at every size. */
const WARM = 2 * CONNECTIONS + PER_KIND;
/** The pair of sizes the targets judge; the others are shown for context. */
const JUDGED = { larger: 1_000_000, smaller: 100_000 };
const MEDIAN_TARGET = 2;
const REPLAY_TARGET = 0.9;
const MEMORY_TARGET = 1.5;

type Kind = { name: string; measured: Request[]; warm: Request[] };
type Latency = { p50: number; p95: number; directP50: number; directP95: number };
type SizeResult = {
  cats: number;
  label: string;
  latency: Map<string, Latency>;
  replayRate: number;
  rssMiB: number;
  startRssMiB: number;
  databaseMiB: number;
  logMiB: number;
};

function label(cats: number): string {
  return cats >= 1_000_000 ? `${cats / 1_000_000}M` : `${cats / 1000}k`;
}

function growthKinds(): Kind[] {
  const search = searchKinds(PER_KIND).map((k) => ({
    name: k.name === 'suggest' ? 'suggestions' : `cold search ${k.name}`,
    measured: k.requests.slice(0, PER_KIND),
    warm: k.requests.slice(PER_KIND, PER_KIND + WARM),
  }));
  const map = VIEWS.flatMap((view, i) =>
    [false, true].map((filtered) => {
      const seed = 2 * i + Number(filtered);
      return {
        name: `map ${view.name}${filtered ? ' filtered' : ''}`,
        measured: mapRequests(view, filtered, PER_KIND, 19 + seed),
        warm: mapRequests(view, filtered, WARM, 1019 + seed),
      };
    }),
  );
  return [...search, ...map];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Resident memory of a live process now (VmRSS) or at its highest so far (VmHWM), in MiB (Linux). */
function residentMiB(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
}

/** The api as it runs in production (`main.ts api` on Postgres and Redis), with its search cache off. */
async function startApi(databaseUrl: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'main.ts', 'api'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_KEY: BENCH_DATA_KEY,
      GEOCODER: 'off',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATABASE_URL: databaseUrl,
      REDIS_URL: BENCH_REDIS_URL,
      SEARCH_CACHE_ENTRIES: '0',
      SEED_ON_EMPTY: 'false',
      LOG_LEVEL: 'warn',
      PORT: String(port),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = performance.now() + 120_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the api exited (${child.exitCode})`);
    const healthy = await fetch(`${baseUrl}/api/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (healthy) return { child, baseUrl };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error('the api did not answer /api/health within 120 s');
}

async function stopApi(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
}

/** Times each request's statements sent by `client` as the app sends them. */
async function directLatencies(client: pg.Client, statements: CompiledQuery[][]): Promise<number[]> {
  const out: number[] = [];
  for (const request of statements) {
    const t0 = performance.now();
    for (const s of request) await sendAsApp(client, s);
    out.push(performance.now() - t0);
  }
  return out;
}

/** A size's database, built and settled, with its api process once started. */
type Built = {
  cats: number;
  label: string;
  bench: BenchDatabase;
  replayRate: number;
  databaseMiB: number;
  logMiB: number;
};
type Serving = Built & { api: ChildProcess; baseUrl: string; startRssMiB: number; direct: pg.Client };

const READ_TABLES = [...new Set(projections.flatMap((p) => p.tables))];

/** Writes a size's log into a fresh database and builds every read table from it with replay. */
async function build(cats: number, bench: BenchDatabase): Promise<Built> {
  const name = label(cats);
  console.log(`   -- ${name} cats`);
  let shown = 0;
  const log = await copyGrowthLog(bench.database, bench.url, cats, (done) => {
    if (done.cats - shown >= cats / 4) {
      shown = done.cats;
      console.log(`     ${done.cats} cats, ${done.events} events`);
    }
  });
  console.log(
    `     log: ${log.events} events (${log.bodegas} bodegas, ${log.cats} cats, ${log.reviews} reviews by ${log.readers} readers) written in ${log.seconds.toFixed(0)} s`,
  );
  const rebuilt = await replay(bench.database, projections);
  const replayRate = rebuilt.events / rebuilt.seconds;
  console.log(
    `     replay: ${rebuilt.events} events in ${rebuilt.seconds.toFixed(1)} s, ${replayRate.toFixed(0)} events/s`,
  );
  // As a running server's autovacuum leaves them: statistics and the visibility map.
  await sql`vacuum analyze ${sql.raw(READ_TABLES.join(', '))}`.execute(bench.database.db);
  const { rows: sizes } = await sql<{ database: string; log: string }>`
    select pg_database_size(current_database())::text as database,
           pg_total_relation_size('events')::text as log`.execute(bench.database.db);
  const databaseMiB = Number(sizes[0]!.database) / 2 ** 20;
  const logMiB = Number(sizes[0]!.log) / 2 ** 20;
  console.log(`     database ${databaseMiB.toFixed(0)} MiB (log ${logMiB.toFixed(0)} MiB)`);
  return { cats, label: name, bench, replayRate, databaseMiB, logMiB };
}

/** Requests measured per size before the next size takes its turn. */
const ROUND = 25;

/**
 * Every kind's requests to every size's api, one at a time, the sizes taking turns ROUND requests
 * at a time (in a rotating order), and the same SQL to each size's database between: the machine's
 * other work then weighs alike on every size, so their ratios hold even on shared cores.
 */
async function measureKinds(servings: Serving[], all: Kind[]): Promise<Map<string, Latency>[]> {
  // Every kind is warmed before any is measured, so no kind is measured on a process still
  // compiling its code (see map.ts, warmApp).
  for (const kind of all)
    for (const s of servings) {
      const { errors } = await httpRun(
        s.baseUrl,
        kind.warm.map((r) => r.path),
        CONNECTIONS,
      );
      if (errors > 0) throw new Error(`warming ${kind.name} at ${s.label}: ${errors} failed requests`);
    }
  const out = servings.map(() => new Map<string, Latency>());
  for (const kind of all) {
    const statements: CompiledQuery[][][] = [];
    for (const s of servings) {
      const mine: CompiledQuery[][] = [];
      for (const r of kind.measured) mine.push(await statementsOf(s.bench.url, r.run));
      statements.push(mine);
    }
    const api = servings.map(() => [] as number[]);
    const direct = servings.map(() => [] as number[]);
    for (let from = 0, round = 0; from < kind.measured.length; from += ROUND, round++) {
      const paths = kind.measured.slice(from, from + ROUND).map((r) => r.path);
      for (let k = 0; k < servings.length; k++) {
        const i = (k + round) % servings.length;
        const one = await httpRun(servings[i]!.baseUrl, paths, 1);
        if (one.errors > 0) throw new Error(`${kind.name} at ${servings[i]!.label}: ${one.errors} failed`);
        api[i]!.push(...one.latencies);
        direct[i]!.push(
          ...(await directLatencies(servings[i]!.direct, statements[i]!.slice(from, from + ROUND))),
        );
      }
    }
    servings.forEach((s, i) => {
      const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
      const [a, d] = [sorted(api[i]!), sorted(direct[i]!)];
      const latency = {
        p50: percentile(a, 50),
        p95: percentile(a, 95),
        directP50: percentile(d, 50),
        directP95: percentile(d, 95),
      };
      console.log(
        `     ${s.label.padEnd(4)} ${kind.name.padEnd(30)} p50 ${latency.p50.toFixed(1)} p95 ${latency.p95.toFixed(1)} ms (direct ${latency.directP50.toFixed(1)} / ${latency.directP95.toFixed(1)})`,
      );
      out[i]!.set(kind.name, latency);
    });
  }
  return out;
}

/** Builds every size, then measures them side by side; every database is dropped at the end. */
async function measureSizes(sizes: number[], kinds: Kind[]): Promise<SizeResult[]> {
  const benches: BenchDatabase[] = [];
  const servings: Serving[] = [];
  try {
    const built: Built[] = [];
    for (const cats of sizes) {
      const bench = await createBenchDatabase(`growth_${label(cats).toLowerCase()}`);
      benches.push(bench);
      built.push(await build(cats, bench));
    }
    for (const b of built) {
      const api = await startApi(b.bench.url);
      const direct = new pg.Client({ connectionString: b.bench.url });
      servings.push({ ...b, api: api.child, baseUrl: api.baseUrl, startRssMiB: 0, direct });
      await direct.connect();
      servings.at(-1)!.startRssMiB = residentMiB(api.child.pid!);
    }
    console.log('   -- reads, every size in turn');
    const latencies = await measureKinds(servings, kinds);
    // A second for the last answers' garbage to be collected, as an idle server's would be.
    await new Promise((r) => setTimeout(r, 1000));
    return servings.map((s, i) => {
      const rssMiB = residentMiB(s.api.pid!);
      console.log(
        `     ${s.label}: api resident memory ${rssMiB.toFixed(0)} MiB (${s.startRssMiB.toFixed(0)} at start, highest ${residentMiB(s.api.pid!, 'VmHWM').toFixed(0)})`,
      );
      return {
        cats: s.cats,
        label: s.label,
        latency: latencies[i]!,
        replayRate: s.replayRate,
        rssMiB,
        startRssMiB: s.startRssMiB,
        databaseMiB: s.databaseMiB,
        logMiB: s.logMiB,
      };
    });
  } finally {
    for (const s of servings) {
      await s.direct.end().catch(() => {});
      await stopApi(s.api);
    }
    for (const bench of benches) await bench.drop();
  }
}

function sizeRows(r: SizeResult): BenchRow[] {
  const out: BenchRow[] = [];
  for (const [kind, l] of r.latency) {
    out.push(row('growth', `${r.label}: ${kind} p50`, 'ms', l.p50, l.directP50, 'direct SQL, 1 client'));
    out.push(row('growth', `${r.label}: ${kind} p95`, 'ms', l.p95, l.directP95, 'direct SQL, 1 client'));
  }
  out.push(row('growth', `${r.label}: replay`, 'ev/s', r.replayRate, 0, 'n/a'));
  out.push(row('growth', `${r.label}: api resident memory`, 'MiB', r.rssMiB, r.startRssMiB, 'at start'));
  out.push(row('growth', `${r.label}: database size`, 'MiB', r.databaseMiB, r.logMiB, 'event log alone'));
  return out;
}

/** `larger` against `smaller`: judged when they are the judged pair, otherwise shown for context. */
function ratioRows(larger: SizeResult, smaller: SizeResult): BenchRow[] {
  const judged = larger.cats === JUDGED.larger && smaller.cats === JUDGED.smaller;
  const vs = `${larger.label} vs ${smaller.label}`;
  const out: BenchRow[] = [];
  for (const [kind, l] of larger.latency) {
    const s = smaller.latency.get(kind)!;
    out.push(
      row(
        'growth',
        `${kind} p50, ${vs}`,
        'ms',
        l.p50,
        s.p50,
        smaller.label,
        judged ? { text: `<= ${MEDIAN_TARGET}x`, pass: l.p50 <= MEDIAN_TARGET * s.p50 } : undefined,
      ),
    );
    out.push(row('growth', `${kind} p95, ${vs}`, 'ms', l.p95, s.p95, smaller.label));
  }
  out.push(
    row(
      'growth',
      `replay rate, ${vs}`,
      'ev/s',
      larger.replayRate,
      smaller.replayRate,
      smaller.label,
      judged
        ? { text: `>= ${REPLAY_TARGET}x`, pass: larger.replayRate >= REPLAY_TARGET * smaller.replayRate }
        : undefined,
    ),
  );
  out.push(
    row(
      'growth',
      `api resident memory, ${vs}`,
      'MiB',
      larger.rssMiB,
      smaller.rssMiB,
      smaller.label,
      judged
        ? { text: `<= ${MEMORY_TARGET}x`, pass: larger.rssMiB <= MEMORY_TARGET * smaller.rssMiB }
        : undefined,
    ),
  );
  out.push(
    row('growth', `database size, ${vs}`, 'MiB', larger.databaseMiB, smaller.databaseMiB, smaller.label),
  );
  return out;
}

/** BENCH_GROWTH_SIZES (cats, comma-separated) replaces the sizes, for trying the bench on small cities. */
function sizesOf(quick: boolean): number[] {
  const given = process.env.BENCH_GROWTH_SIZES;
  if (!given) return quick ? QUICK_SIZES : FULL_SIZES;
  const sizes = given.split(',').map(Number);
  if (!sizes.every((n) => Number.isSafeInteger(n) && n >= 100))
    throw new Error(`BENCH_GROWTH_SIZES: whole numbers of cats, at least 100 each (${given})`);
  return sizes.sort((a, b) => a - b);
}

export const scenario: Scenario = {
  name: 'growth',
  async run({ quick }) {
    // The bench's appends seal review comments, and its replay opens them, under this run's key.
    useDataKey(
      loadConfig({
        NODE_ENV: 'production',
        DATA_KEY: BENCH_DATA_KEY,
        JWT_SECRET: randomBytes(32).toString('hex'),
      }).dataKey,
    );
    const kinds = growthKinds();
    const results = await measureSizes(sizesOf(quick), kinds);
    const rows = results.flatMap(sizeRows);
    for (let i = results.length - 1; i > 0; i--) rows.push(...ratioRows(results[i]!, results[i - 1]!));
    console.log(`   load average after the run ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`);
    return rows;
  },
};
