// Photo storage: the same real api and worker processes (main.ts api / main.ts worker) against a
// private Postgres and Redis, once with PHOTO_STORAGE=local and once with PHOTO_STORAGE=s3 against
// s3rver, each mode with a database, a Redis and a directory of its own (as UPLOAD_DIR and TMPDIR).
// The two modes are measured in alternating rounds (local, s3, s3, local, ...), so that the
// machine's other work weighs alike on both.
// 1. Upload throughput: 1.3 MB camera-like JPEGs, 8 in flight; each round waits until the worker
//    has processed every photo of the round before the next begins.
// 2. A large variant served through the api (S3_PUBLIC_URL unset, so /uploads streams it from the
//    storage), 8 connections: p95.
// 3. The s3 api's resident memory over 500 more uploads, sampled as they go.
// s3rver is a Node process on the same 2 cores: its CPU (request parsing, signature checks, writing
// each object to its own disk) is work a real S3 does elsewhere, so the s3 figures carry it. The
// CPU each process used is read from /proc around each round, so the rows also say what the api
// itself spends per upload and per variant with each storage, and what s3rver spends beside it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { S3RVER_CREDENTIALS, startS3Server, type S3ServerUnderTest } from '../../tests/helpers/s3-server.ts';
import {
  json,
  register,
  startAppProcess,
  startPostgres,
  startRedis,
  waitFor,
  type AppProcess,
  type PostgresInstance,
  type RedisInstance,
} from '../../tests/faults/instances.ts';
import { cameraJpeg, httpLoad, percentile, row, type LoadStats } from '../lib.ts';
import type { Scenario } from '../types.ts';

const IN_FLIGHT = 8;

type ModeName = 'local' | 's3';
type Mode = {
  name: ModeName;
  dir: string;
  redis: RedisInstance;
  db: pg.Pool;
  api: AppProcess;
  worker: AppProcess;
  token: string;
  catId: number;
};

async function upload(mode: Mode, jpeg: Buffer): Promise<void> {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'cat.jpg');
  const res = await fetch(`${mode.api.baseUrl}/api/photos/cats/${mode.catId}/photos`, {
    method: 'POST',
    headers: { authorization: `Bearer ${mode.token}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`${mode.name} upload: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

/** `count` uploads, IN_FLIGHT at a time; `after(n)` runs once n have completed (in order). */
async function uploads(
  mode: Mode,
  images: Buffer[],
  count: number,
  after?: (done: number) => Promise<void> | void,
): Promise<number> {
  let next = 0;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < count) {
        const n = next++;
        await upload(mode, images[n % images.length]!);
        done++;
        await after?.(done);
      }
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

/** Waits until the mode's worker has processed every photo uploaded so far. */
async function processed(mode: Mode, timeoutMs: number): Promise<void> {
  await waitFor(
    async () => {
      const { rows } = await mode.db.query<{ n: number }>(
        `select count(*)::int as n from photos where status = 'processing'`,
      );
      return rows[0]!.n === 0;
    },
    timeoutMs,
    `${mode.name} photos to be processed`,
  );
  const { rows } = await mode.db.query<{ n: number }>(
    `select count(*)::int as n from photos where status = 'failed'`,
  );
  if (rows[0]!.n > 0) throw new Error(`${mode.name}: ${rows[0]!.n} photos failed to process`);
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  return kb / 1024;
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** CPU time (user and system) a process has used so far, in ms. */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // utime and stime, the 14th and 15th fields: the 12th and 13th after the command's name.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** The s3rver process serving on `port` (startS3Server's child, found by its arguments). */
function s3rverPid(port: number): number {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // gone meanwhile
    }
    const main = args.findIndex((a) => a.endsWith('s3rver-main.ts'));
    if (main >= 0 && args[main + 1] === String(port)) return Number(entry);
  }
  throw new Error(`no s3rver process on port ${port}`);
}

/** CPU ms that `pids` use while `work` runs. */
async function cpuOf<T>(pids: number[], work: () => Promise<T>): Promise<{ result: T; ms: number[] }> {
  const before = pids.map(cpuMs);
  const result = await work();
  return { result, ms: pids.map((pid, i) => cpuMs(pid) - before[i]!) };
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/** local, s3, s3, local, local, s3, ...: each mode goes first as often as second. */
function order(round: number): ModeName[] {
  return round % 2 === 0 ? ['local', 's3'] : ['s3', 'local'];
}

async function startMode(name: ModeName, primary: PostgresInstance, s3: S3ServerUnderTest): Promise<Mode> {
  const admin = new pg.Client({ connectionString: primary.url });
  await admin.connect();
  await admin.query(`create database bodega_${name}`);
  await admin.end();
  const url = new URL(primary.url);
  url.pathname = `/bodega_${name}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bodega-bench-storage-${name}-`));
  const redis = await startRedis();
  const env = {
    DATABASE_URL: url.toString(),
    REDIS_URL: redis.url,
    UPLOAD_DIR: path.join(dir, 'uploads'),
    TMPDIR: dir,
    UPLOADS_PER_MINUTE: '0',
    UPLOADS_PER_DAY: '0',
    GEOCODER: 'off',
    ...(name === 's3' ? s3.env : { PHOTO_STORAGE: 'local' }),
  };
  // The api first, alone: it migrates the empty database.
  const api = await startAppProcess('api', env);
  const worker = await startAppProcess('worker', env);
  const db = new pg.Pool({ connectionString: url.toString(), max: 2 });
  const mode: Mode = { name, dir, redis, db, api, worker, token: '', catId: 0 };
  mode.token = (await register(api.baseUrl, `bench${name}`)).token;
  const res = await fetch(`${api.baseUrl}/api/cats`, {
    method: 'POST',
    headers: { authorization: `Bearer ${mode.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Storage Cat',
      bodega_name: `Storage Deli ${name}`,
      address: '1 Bucket St',
      latitude: 40.72,
      longitude: -73.98,
    }),
  });
  const body = await json(res);
  if (res.status !== 201) throw new Error(`adding a cat: ${res.status} ${JSON.stringify(body)}`);
  mode.catId = body.cat.id;
  return mode;
}

async function stopMode(mode: Mode): Promise<void> {
  await mode.api.kill('SIGTERM');
  await mode.worker.kill('SIGTERM');
  await mode.db.end();
  await mode.redis.destroy();
  fs.rmSync(mode.dir, { recursive: true, force: true });
}

export const scenario: Scenario = {
  name: 'storage',
  async run({ quick }) {
    const rounds = quick ? 2 : 4;
    const perRound = quick ? 16 : 40;
    const serveRounds = quick ? 2 : 4;
    const serveSeconds = quick ? 3 : 8;
    const memoryUploads = quick ? 150 : 500;
    const memoryAt = quick ? [25, 50, 100, 150] : [50, 100, 200, 300, 400, 500];

    const images = await Promise.all(
      [1, 2, 3, 4].map((seed) => cameraJpeg({ width: 2400, height: 1800, seed, quality: 90 })),
    );
    const sizeMb = images.reduce((sum, b) => sum + b.length, 0) / images.length / 2 ** 20;
    let primary: PostgresInstance | null = null;
    let s3: S3ServerUnderTest | null = null;
    const modes: Partial<Record<ModeName, Mode>> = {};
    try {
      [primary, s3] = await Promise.all([startPostgres(), startS3Server()]);
      modes.local = await startMode('local', primary, s3);
      modes.s3 = await startMode('s3', primary, s3);
      const both = modes as Record<ModeName, Mode>;
      console.log(
        `   ${images.length} JPEGs of ${sizeMb.toFixed(2)} MB on average; s3rver at ${s3.endpoint} (${S3RVER_CREDENTIALS.accessKeyId})`,
      );

      // Warm-up: each process's code paths compiled, each store's folders made.
      for (const name of order(0)) {
        await uploads(both[name], images, IN_FLIGHT);
        await processed(both[name], 120_000);
      }

      // 1. Upload throughput in alternating rounds, with the CPU the api and s3rver used meanwhile.
      const storePid = s3rverPid(s3.port);
      const pidsOf = (name: ModeName) => [both[name].api.child.pid!, storePid];
      const rates: Record<ModeName, number[]> = { local: [], s3: [] };
      const uploadCpu = { local: [] as number[], s3: [] as number[], s3rver: [] as number[] };
      for (let round = 0; round < rounds; round++)
        for (const name of order(round)) {
          const { result, ms } = await cpuOf(pidsOf(name), () => uploads(both[name], images, perRound));
          rates[name].push(result);
          uploadCpu[name].push(ms[0]! / perRound);
          if (name === 's3') uploadCpu.s3rver.push(ms[1]! / perRound);
          await processed(both[name], 300_000);
        }
      console.log(
        `   uploads/s by round: local ${rates.local.map((r) => r.toFixed(1)).join('/')}, s3 ${rates.s3.map((r) => r.toFixed(1)).join('/')}`,
      );

      // 2. Variants through the api: every large variant each mode holds, cycled.
      const variantPaths: Record<ModeName, string[]> = { local: [], s3: [] };
      for (const name of ['local', 's3'] as const) {
        const { rows } = await both[name].db.query<{ filename: string }>(
          `select filename from photos where status = 'ready' and target_type = 'cat'`,
        );
        variantPaths[name] = rows.map((r) => `/uploads/cats/${r.filename}_large.webp`);
        const check = await fetch(`${both[name].api.baseUrl}${variantPaths[name][0]}`);
        if (check.status !== 200) throw new Error(`${name}: a variant answered ${check.status}`);
        await check.arrayBuffer();
      }
      const serve = async (name: ModeName, seconds: number): Promise<LoadStats> => {
        const stats = await httpLoad({
          baseUrl: both[name].api.baseUrl,
          paths: variantPaths[name],
          connections: IN_FLIGHT,
          seconds,
        });
        if (stats.errors > 0) throw new Error(`${name}: ${stats.errors} variant requests failed`);
        return stats;
      };
      for (const name of order(0)) await serve(name, 2);
      const served: Record<ModeName, LoadStats[]> = { local: [], s3: [] };
      const serveCpu = { local: [] as number[], s3: [] as number[], s3rver: [] as number[] };
      for (let round = 0; round < serveRounds; round++)
        for (const name of order(round)) {
          const { result, ms } = await cpuOf(pidsOf(name), () => serve(name, serveSeconds));
          served[name].push(result);
          serveCpu[name].push(ms[0]! / result.requests);
          if (name === 's3') serveCpu.s3rver.push(ms[1]! / result.requests);
        }
      const p95 = (name: ModeName) => median(served[name].map((s) => s.p95));
      const rps = (name: ModeName) => median(served[name].map((s) => s.rps));
      console.log(
        `   variant p95 by round: local ${served.local.map((s) => s.p95.toFixed(1)).join('/')} ms, s3 ${served.s3.map((s) => s.p95.toFixed(1)).join('/')} ms; req/s ${rps('local').toFixed(0)} vs ${rps('s3').toFixed(0)}`,
      );

      // 3. The s3 api's resident memory as uploads go on (the worker processes them meanwhile).
      const s3Mode = both.s3;
      const pid = s3Mode.api.child.pid!;
      const samples: { uploads: number; mib: number }[] = [];
      await uploads(s3Mode, images, memoryUploads, (done) => {
        if (memoryAt.includes(done)) samples.push({ uploads: done, mib: rssMiB(pid) });
      });
      console.log(`   s3 api RSS: ${samples.map((s) => `${s.uploads}: ${s.mib.toFixed(0)} MiB`).join(', ')}`);
      const first = samples[0]!;
      const last = samples.at(-1)!;

      const label = 's3rver on the same 2 cores';
      const cpuRows = [
        row(
          'storage',
          'api CPU per upload (s3)',
          'ms',
          median(uploadCpu.s3),
          median(uploadCpu.local),
          'api CPU per upload (local)',
        ),
        row(
          'storage',
          's3rver CPU per upload (a real S3 spends it elsewhere)',
          'ms',
          median(uploadCpu.s3rver),
          median(uploadCpu.s3),
          'api CPU per upload (s3)',
        ),
        row(
          'storage',
          'api CPU per variant served (s3)',
          'ms',
          median(serveCpu.s3),
          median(serveCpu.local),
          'api CPU per variant (local)',
        ),
        row(
          'storage',
          's3rver CPU per variant served (a real S3 spends it elsewhere)',
          'ms',
          median(serveCpu.s3rver),
          median(serveCpu.s3),
          'api CPU per variant (s3)',
        ),
      ];
      return [
        row(
          'storage',
          `upload throughput, ${IN_FLIGHT} in flight, ${sizeMb.toFixed(1)} MB JPEGs (s3 = s3rver, same host)`,
          'req/s',
          median(rates.s3),
          median(rates.local),
          'PHOTO_STORAGE=local',
          { text: 'ratio >= 0.8', pass: median(rates.s3) / median(rates.local) >= 0.8 },
        ),
        row(
          'storage',
          `large variant through the api p95, ${IN_FLIGHT} connections (${label})`,
          'ms',
          p95('s3'),
          p95('local'),
          'PHOTO_STORAGE=local',
          { text: 'ratio <= 1.5', pass: p95('s3') / p95('local') <= 1.5 },
        ),
        row(
          'storage',
          `s3 api RSS after ${last.uploads} uploads vs after ${first.uploads}`,
          'MiB',
          last.mib,
          first.mib,
          `after ${first.uploads} uploads`,
          { text: 'ratio <= 1.2', pass: last.mib / first.mib <= 1.2 },
        ),
        ...cpuRows,
      ];
    } finally {
      for (const mode of Object.values(modes)) await stopMode(mode);
      await s3?.close();
      await primary?.destroy();
    }
  },
};
