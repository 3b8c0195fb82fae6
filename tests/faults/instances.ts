// Private Postgres and Redis servers on their own ports in temporary directories, and app
// processes started as the operators would start them, so fault tests can stop, kill and restart
// any of them without disturbing anything else on the machine.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Json } from '../helpers/json.ts';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string | (() => string),
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
}

function pgBin(name: string): string {
  const versions = fs.readdirSync('/usr/lib/postgresql').sort();
  return path.join('/usr/lib/postgresql', versions.at(-1)!, 'bin', name);
}

const asRoot = process.getuid?.() === 0;
/** initdb and postgres refuse to run as root: run them as the postgres system user then. */
function pgCommand(args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0]!, args.slice(1)];
}

export type PostgresInstance = {
  port: number;
  url: string;
  start(): Promise<void>;
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  destroy(): Promise<void>;
};

export async function startPostgres(): Promise<PostgresInstance> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) execFileSync('chown', ['-R', 'postgres', dir]);
  const [cmd, args] = pgCommand([
    pgBin('initdb'),
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  execFileSync(cmd, args, { stdio: 'ignore' });
  // A private primary can be streamed from (startReplica): replication connections from 127.0.0.1
  // are trusted like every other (initdb writes that line today; written again so it stays so).
  fs.appendFileSync(path.join(data, 'pg_hba.conf'), '\nhost replication all 127.0.0.1/32 trust\n');
  const instance = postgresIn(dir, port, '-c wal_level=replica -c max_wal_senders=10');
  await instance.start();
  return instance;
}

/** A Postgres server on `port` over the data directory `dir`/data (already initialised). */
function postgresIn(dir: string, port: number, options = ''): PostgresInstance {
  const data = path.join(dir, 'data');
  const ctl = (action: string[]) => {
    const [c, a] = pgCommand([pgBin('pg_ctl'), '-D', data, '-w', '-t', '60', ...action]);
    execFileSync(c, a, { stdio: 'ignore' });
  };
  const instance: PostgresInstance = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      ctl([
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off ${options}`.trim(),
        '-l',
        path.join(dir, 'log'),
        'start',
      ]);
    },
    async stop(mode = 'fast') {
      ctl(['-m', mode, 'stop']);
    },
    async destroy() {
      try {
        ctl(['-m', 'immediate', 'stop']);
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return instance;
}

export type ReplicaInstance = PostgresInstance & {
  /** Stops applying the primary's WAL (it still arrives): reads see the data as of now. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
};

/** Runs one statement on a server with its own short-lived connection. */
async function runOn(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end().catch(() => {});
  }
}

let replicas = 0;

/**
 * A hot standby of `primary` (one of startPostgres's) on its own port: a base backup taken with
 * `pg_basebackup -R` (which writes standby.signal and the primary's connection), streaming from a
 * replication slot so the primary keeps the WAL a stopped replica has not received yet. Reads on it
 * work like on any server; writes fail (read-only transaction).
 */
export async function startReplica(primary: PostgresInstance): Promise<ReplicaInstance> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-pg-replica-'));
  if (asRoot) execFileSync('chown', ['-R', 'postgres', dir]);
  const slot = `replica_${process.pid}_${++replicas}`;
  const [cmd, args] = pgCommand([
    pgBin('pg_basebackup'),
    '-h',
    '127.0.0.1',
    '-p',
    String(primary.port),
    '-U',
    'postgres',
    '-D',
    path.join(dir, 'data'),
    '-R',
    '-X',
    'stream',
    '--create-slot',
    '--slot',
    slot,
    '--checkpoint=fast',
    '--no-sync',
  ]);
  execFileSync(cmd, args, { stdio: 'ignore' });
  const server = postgresIn(dir, port, '-c hot_standby=on');
  const replica: ReplicaInstance = {
    ...server,
    async pauseReplay() {
      await runOn(replica.url, 'select pg_wal_replay_pause()');
    },
    async resumeReplay() {
      await runOn(replica.url, 'select pg_wal_replay_resume()');
    },
    async destroy() {
      await server.destroy();
      // The slot would hold the primary's WAL for good.
      await runOn(primary.url, `select pg_drop_replication_slot('${slot}')`).catch(() => {});
    },
  };
  await replica.start();
  return replica;
}

export type RedisInstance = {
  port: number;
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  destroy(): Promise<void>;
};

export async function startRedis(): Promise<RedisInstance> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-redis-'));
  let child: ChildProcess | null = null;
  const instance: RedisInstance = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      // Keeps its data in memory only across a stop: like a Redis restart that lost nothing that
      // had not already been handed on (the log is the source of truth).
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
        { stdio: 'ignore' },
      );
      await waitFor(
        async () => {
          const s = net.connect(port, '127.0.0.1');
          return new Promise<boolean>((resolve) => {
            s.once('connect', () => (s.end(), resolve(true)));
            s.once('error', () => resolve(false));
          });
        },
        10_000,
        'redis',
      );
    },
    async stop() {
      if (!child) return;
      const c = child;
      child = null;
      c.kill('SIGKILL');
      await new Promise((r) => c.once('exit', r));
    },
    async destroy() {
      await instance.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await instance.start();
  return instance;
}

export type AppProcess = {
  port: number;
  baseUrl: string;
  child: ChildProcess;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
};

/** The process entry from source, as `npm run api` / `npm run worker` run it. */
const SOURCE_ENTRY = ['--import', 'tsx', 'main.ts'];

/** Runs `main.ts <role>` (or another `entry`, e.g. the compiled one) as its own process. */
export async function startAppProcess(
  role: 'api' | 'worker' | 'all',
  env: Record<string, string>,
  entry: string[] = SOURCE_ENTRY,
): Promise<AppProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [...entry, role], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      SEED_ON_EMPTY: 'false',
      WRITE_RATE_LIMIT: '0',
      JWT_SECRET: 'fault-test-secret-0123456789abcdef',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const proc: AppProcess = {
    port,
    baseUrl,
    child,
    output: () => output,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await new Promise((r) => child.once('exit', r));
    },
  };
  if (role !== 'worker') {
    await waitFor(
      async () => (await fetch(`${baseUrl}/api/health`)).ok,
      60_000,
      `${role} process to answer (output: ${output.slice(-500)})`,
    );
  }
  return proc;
}

export async function json(res: Response): Promise<Json> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function register(baseUrl: string, username: string): Promise<{ token: string; id: number }> {
  const res = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.test`, password: 'whiskers-123' }),
  });
  const body = await json(res);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(body)}`);
  return { token: body.access_token, id: body.user.id };
}
