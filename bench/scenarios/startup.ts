// Embedded-mode start-up: time from spawning `main.ts all` with no DATABASE_URL/REDIS_URL to
// its first answer on /api/health, on a fresh data directory (migrations included) and on an
// existing one, against a bare Fastify process started the same way (the runtime's own floor).
// Production start-up: an api process on Postgres and Redis run compiled (dist/main.js, as the
// Docker image does) against the same process through the tsx loader, in time and resident memory.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildServer, SERVER_DIST } from '../../scripts/build-server.ts';
import { BENCH_DATA_KEY, BENCH_REDIS_URL, createBenchDatabase, row } from '../lib.ts';
import type { Scenario } from '../types.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

const TSX = ['--import', 'tsx'];

/** Resident memory of a live process, in MiB (Linux). */
function residentMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** CPU time (user + system) a live process has used so far, in ms (Linux, 100 ticks a second). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

type Start = { ms: number; cpuMs: number; rssMiB: number };

/** Spawns `node <args>`: how long it took to answer /api/health, and its CPU time and memory then. */
async function startToHealthy(args: string[], env: Record<string, string>, port: number): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn', SEED_ON_EMPTY: 'false' },
    stdio: 'ignore',
  });
  try {
    const deadline = started + 120_000;
    while (performance.now() < deadline) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.ok) {
          const ms = performance.now() - started;
          return { ms, cpuMs: cpuMs(child.pid!), rssMiB: residentMiB(child.pid!) };
        }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('did not become healthy within 120 s');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

async function timeToHealthy(args: string[], env: Record<string, string>, port: number): Promise<number> {
  return (await startToHealthy([...TSX, ...args], env, port)).ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The api on Postgres and Redis, compiled and through tsx in turn. */
async function productionApi(runs: number) {
  await buildServer();
  const bench = await createBenchDatabase('startup');
  const env = {
    NODE_ENV: 'production',
    DATA_KEY: BENCH_DATA_KEY,
    GEOCODER: 'off',
    JWT_SECRET: 'startup-bench-secret-0123456789abcdefghijkl',
    DATABASE_URL: bench.url,
    REDIS_URL: BENCH_REDIS_URL,
  };
  const compiled: Start[] = [];
  const loader: Start[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      compiled.push(await startToHealthy([path.join(SERVER_DIST, 'main.js'), 'api'], env, await freePort()));
      loader.push(await startToHealthy([...TSX, 'main.ts', 'api'], env, await freePort()));
    }
  } finally {
    await bench.drop();
  }
  const label = 'node --import tsx main.ts api';
  const compare = (metric: string, unit: string, figure: (s: Start) => number) =>
    row('startup', metric, unit, median(compiled.map(figure)), median(loader.map(figure)), label);
  return [
    compare('api first answer, compiled (dist/main.js)', 'ms', (s) => s.ms),
    compare('api CPU time until then, compiled', 'ms', (s) => s.cpuMs),
    compare('api resident memory then, compiled', 'MiB', (s) => s.rssMiB),
  ];
}

const BARE = `
import Fastify from 'fastify';
const app = Fastify();
app.get('/api/health', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
`;

export const scenario: Scenario = {
  name: 'startup',
  async run({ quick }) {
    const runs = quick ? 1 : 3;
    const bareFile = path.resolve('bench/.bare-server.ts');
    fs.writeFileSync(bareFile, BARE);
    const cold: number[] = [];
    const warm: number[] = [];
    const bare: number[] = [];
    try {
      for (let i = 0; i < runs; i++) {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-startup-'));
        const env = {
          DATA_DIR: path.join(dir, 'data'),
          UPLOAD_DIR: path.join(dir, 'uploads'),
          DATABASE_URL: '',
          REDIS_URL: '',
        };
        cold.push(await timeToHealthy(['main.ts', 'all'], env, await freePort()));
        warm.push(await timeToHealthy(['main.ts', 'all'], env, await freePort()));
        bare.push(await timeToHealthy([bareFile], {}, await freePort()));
        fs.rmSync(dir, { recursive: true, force: true });
      }
    } finally {
      fs.rmSync(bareFile, { force: true });
    }
    return [
      row(
        'startup',
        'embedded first start (fresh data dir)',
        'ms',
        median(cold),
        median(bare),
        'bare Fastify start',
      ),
      row(
        'startup',
        'embedded restart (existing data dir)',
        'ms',
        median(warm),
        median(bare),
        'bare Fastify start',
      ),
      ...(await productionApi(quick ? 1 : 5)),
    ];
  },
};
