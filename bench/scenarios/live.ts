// Live stream fan-out: one api process with 2,000 WebSocket clients on loopback while cats are
// created through POST /api/cats at a steady 10 per second. Measures the time from each POST's
// response to the cat.added message's arrival at every client, checks that no client misses or
// repeats a cat, and compares with the same stream to a single client in the same run.
// The api runs on this thread; the clients run on worker threads so that reading 20,000
// messages a second does not queue behind the server's own work.
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { buildApp } from '../../server/app.ts';
import { liveStats } from '../../server/live/stats.ts';
import { benchServices, createBenchDatabase, percentile, row } from '../lib.ts';
import type { BenchRow, Scenario } from '../types.ts';

const RATE_PER_SECOND = 10;
const TARGET_P99_MS = 200;

/** Runs inside each worker thread: opens its share of clients and records every cat.added. */
const CLIENT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require(workerData.wsPath);
const now = () => performance.timeOrigin + performance.now();
const later = (a, b) => {
  const [ax, ap] = a.split('-'); const [bx, bp] = b.split('-');
  return BigInt(ax) === BigInt(bx) ? Number(ap) > Number(bp) : BigInt(ax) > BigInt(bx);
};
const clients = [];
const arrivals = new Map(); // cat id -> arrival times, one per client
let duplicates = 0, outOfOrder = 0, closed = 0;
function open(i) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(workerData.url, { perMessageDeflate: false });
    const client = { seen: new Set(), last: null };
    ws.on('message', (raw) => {
      const at = now();
      const m = JSON.parse(raw.toString());
      if (m.type === 'hello') return resolve();
      if (m.type !== 'cat.added') return;
      if (client.last && !later(m.cursor, client.last)) outOfOrder++;
      client.last = m.cursor;
      if (client.seen.has(m.data.id)) { duplicates++; return; }
      client.seen.add(m.data.id);
      let list = arrivals.get(m.data.id);
      if (!list) arrivals.set(m.data.id, (list = []));
      list.push(at);
    });
    ws.on('close', () => closed++);
    ws.on('error', reject);
    clients.push({ ws, client });
  });
}
parentPort.on('message', async (command) => {
  if (command === 'open') {
    for (let i = 0; i < workerData.count; i += 50) {
      await Promise.all(Array.from({ length: Math.min(50, workerData.count - i) }, (_, j) => open(i + j)));
    }
    parentPort.postMessage({ ready: clients.length });
  } else if (command === 'report') {
    const counts = clients.map((c) => c.client.seen.size);
    parentPort.postMessage({ arrivals: [...arrivals], duplicates, outOfOrder, closed, counts });
  } else if (command === 'close') {
    for (const c of clients) c.ws.terminate();
    parentPort.postMessage({ closed: true });
  }
});
`;

type Report = {
  arrivals: [number, number[]][];
  duplicates: number;
  outOfOrder: number;
  closed: number;
  counts: number[];
};

function ask<T>(worker: Worker, command: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      worker.off('message', onMessage);
      reject(error);
    };
    const onMessage = (answer: T) => {
      worker.off('error', onError);
      resolve(answer);
    };
    worker.once('message', onMessage);
    worker.once('error', onError);
    worker.postMessage(command);
  });
}

/** Clients spread over worker threads, each connected and greeted before anything is created. */
async function openClients(url: string, total: number, threads: number) {
  const wsPath = createRequire(import.meta.url).resolve('ws');
  const shares = Array.from(
    { length: threads },
    (_, i) => Math.floor(total / threads) + (i < total % threads ? 1 : 0),
  ).filter((n) => n > 0);
  const workers = shares.map(
    (count) => new Worker(CLIENT_WORKER, { eval: true, workerData: { url, count, wsPath } }),
  );
  await Promise.all(workers.map((w) => ask(w, 'open')));
  return {
    async reports(): Promise<Report[]> {
      return Promise.all(workers.map((w) => ask<Report>(w, 'report')));
    },
    async close() {
      await Promise.all(workers.map((w) => ask(w, 'close')));
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

type Round = {
  latencies: number[];
  deliveries: number;
  expected: number;
  missing: number;
  duplicates: number;
  outOfOrder: number;
  seconds: number;
  failedPosts: number;
};

/** Creates cats at a steady rate while `clients` listen, then gathers what reached them. */
async function runRound(options: {
  base: string;
  token: string;
  clients: number;
  threads: number;
  seconds: number;
  tag: string;
}): Promise<Round> {
  const listeners = await openClients(
    `${options.base.replace(/^http/, 'ws')}/api/stream`,
    options.clients,
    options.threads,
  );
  const respondedAt = new Map<number, number>();
  let failedPosts = 0;
  const total = options.seconds * RATE_PER_SECOND;
  const started = performance.now();
  const posts: Promise<void>[] = [];
  try {
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / RATE_PER_SECOND;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      posts.push(
        postCat(options.base, options.token, `${options.tag} ${i}`).then((created) => {
          if (created === null) failedPosts++;
          else respondedAt.set(created.id, created.at);
        }),
      );
    }
    await Promise.all(posts);
    const created = respondedAt.size;
    const expected = created * options.clients;
    const deadline = performance.now() + 15_000;
    let reports = await listeners.reports();
    while (received(reports) < expected && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      reports = await listeners.reports();
    }
    const seconds = (performance.now() - started) / 1000;
    const latencies: number[] = [];
    let lastArrival = 0;
    for (const report of reports) {
      for (const [id, times] of report.arrivals) {
        const at = respondedAt.get(id);
        if (at === undefined) continue;
        for (const t of times) {
          latencies.push(t - at);
          lastArrival = Math.max(lastArrival, t);
        }
      }
    }
    const firstResponse = Math.min(...respondedAt.values());
    return {
      latencies,
      deliveries: latencies.length,
      expected,
      missing: reports.reduce((n, r) => n + r.counts.reduce((m, c) => m + (created - c), 0), 0),
      duplicates: reports.reduce((n, r) => n + r.duplicates, 0),
      outOfOrder: reports.reduce((n, r) => n + r.outOfOrder, 0),
      seconds: Math.max(seconds, (lastArrival - firstResponse) / 1000),
      failedPosts,
    };
  } finally {
    await listeners.close();
  }
}

function received(reports: Report[]): number {
  return reports.reduce((n, r) => n + r.counts.reduce((a, b) => a + b, 0), 0);
}

async function postCat(
  base: string,
  token: string,
  name: string,
): Promise<{ id: number; at: number } | null> {
  const res = await fetch(`${base}/api/cats`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      name,
      bodega_name: 'Live Bench Deli',
      address: '1 Stream St, New York, NY',
      latitude: 40.7411,
      longitude: -73.9897,
    }),
  });
  const at = performance.timeOrigin + performance.now();
  if (res.status !== 201) return null;
  const body = (await res.json()) as { cat: { id: number } };
  return { id: body.cat.id, at };
}

async function register(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'live_bench',
      email: 'live_bench@example.test',
      password: 'bench-password',
    }),
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Each client holds a socket here and one in the api: both are in this process. */
function assertDescriptors(clients: number) {
  const limits = fs.readFileSync('/proc/self/limits', 'utf8');
  const soft = Number(/Max open files\s+(\d+)/.exec(limits)?.[1] ?? Infinity);
  if (soft < clients * 2 + 200) {
    throw new Error(
      `open-file limit ${soft} is too low for ${clients} clients (needs ~${clients * 2 + 200}): run \`ulimit -n 65536\` first`,
    );
  }
}

export const scenario: Scenario = {
  name: 'live',
  async run({ quick }) {
    const clients = quick ? 200 : 2000;
    const seconds = quick ? 5 : 20;
    assertDescriptors(clients);
    const bench = await createBenchDatabase('live');
    const services = await benchServices(bench.database, { databaseUrl: bench.url });
    const app = await buildApp(services, { serveClient: false });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const token = await register(base);
      const threads = quick ? 2 : 4;
      const single = await runRound({
        base,
        token,
        clients: 1,
        threads: 1,
        seconds: quick ? 3 : 10,
        tag: 'Solo',
      });
      const crowd = await runRound({ base, token, clients, threads, seconds, tag: 'Crowd' });
      return report(crowd, single, clients, liveStats());
    } finally {
      await app.close();
      await bench.drop();
    }
  },
};

function report(
  crowd: Round,
  single: Round,
  clients: number,
  stats: ReturnType<typeof liveStats>,
): BenchRow[] {
  const sorted = [...crowd.latencies].sort((a, b) => a - b);
  const soloSorted = [...single.latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  const offered = clients * RATE_PER_SECOND;
  const faults = crowd.missing + crowd.duplicates + crowd.outOfOrder + crowd.failedPosts;
  const label = `${clients} clients`;
  const rows = [
    row('live', `POST -> cat.added p50, ${label}`, 'ms', p50, percentile(soloSorted, 50), 'same, 1 client'),
    row('live', `POST -> cat.added p99, ${label}`, 'ms', p99, percentile(soloSorted, 99), 'same, 1 client', {
      text: `p99 <= ${TARGET_P99_MS} ms`,
      pass: p99 <= TARGET_P99_MS,
    }),
    row(
      'live',
      `deliveries/s, ${label} at ${RATE_PER_SECOND} cats/s`,
      '/s',
      crowd.deliveries / crowd.seconds,
      offered,
      'offered: clients x cats/s',
    ),
    row(
      'live',
      `missed + repeated + out-of-order + failed POSTs`,
      'count',
      faults,
      crowd.expected,
      'deliveries expected',
      {
        text: 'none missed or repeated',
        pass: faults === 0,
      },
    ),
  ];
  if (stats.droppedSlow + stats.droppedDead > 0) {
    rows.push(
      row(
        'live',
        'sockets dropped by the server',
        'count',
        stats.droppedSlow + stats.droppedDead,
        clients,
        'clients',
      ),
    );
  }
  return rows;
}
