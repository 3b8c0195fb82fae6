// Reads on a streaming replica: a private primary with a city appended through the real store
// (20,000 cats in 4,000 bodegas; 5,000 / 1,000 with --quick), a real hot standby of it
// (pg_basebackup, streaming), and two api processes (main.ts api) on the same primary: one with
// DATABASE_REPLICA_URLS naming the standby, one without. The search cache is off in both, so every
// search reaches a database.
// 1. Text search, nearby search and the map, one request at a time, each request sent to both
//    processes in turn (which goes first alternates): medians through the replica vs the same
//    reads on the primary alone.
// 2. Read-your-writes: a visitor's read of a cat's page right after the cat was added, carrying the
//    write's X-Log-Position (served by the replica once it has replayed the write), against a plain
//    read of the cat added before it (the replica as is), the two reads in alternating order.
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { createInlineQueue } from '../../server/queue/inline.ts';
import { closeServices, createServices } from '../../server/services.ts';
import {
  json,
  register,
  startAppProcess,
  startPostgres,
  startReplica,
  waitFor,
  type AppProcess,
  type PostgresInstance,
  type ReplicaInstance,
} from '../../tests/faults/instances.ts';
import { generateCity } from '../city-data.ts';
import { percentile, row, settleTables } from '../lib.ts';
import type { BenchRow, Scenario } from '../types.ts';
import { requests as mapRequests, VIEWS } from './map.ts';

const QUERIES = [
  'whiskers',
  'wiskers',
  'tabby whiskers',
  'luna',
  'chairman meow',
  'sunny deli',
  'maine coon',
];
const PLACES = [
  { lat: 40.7549, lng: -73.984 },
  { lat: 40.7081, lng: -73.9571 },
  { lat: 40.7644, lng: -73.9235 },
  { lat: 40.6409, lng: -73.9624 },
];

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/** Time of one GET, its body read; it must answer 200. */
async function timedGet(url: string, headers: Record<string, string> = {}): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return ms;
}

/** Each path sent to both processes, one request at a time; medians of each. */
async function compare(
  replicated: AppProcess,
  primaryOnly: AppProcess,
  paths: string[],
): Promise<{ replica: number; primary: number }> {
  const times = { replica: [] as number[], primary: [] as number[] };
  for (const [i, p] of paths.entries()) {
    const pair = [
      ['replica', replicated],
      ['primary', primaryOnly],
    ] as const;
    for (const [which, app] of i % 2 === 0 ? pair : [pair[1], pair[0]])
      times[which].push(await timedGet(`${app.baseUrl}${p}`));
  }
  return { replica: median(times.replica), primary: median(times.primary) };
}

function searchPaths(repeat: number): { name: string; paths: string[] }[] {
  const enc = encodeURIComponent;
  const times = <T>(xs: T[]) => Array.from({ length: repeat }, () => xs).flat();
  return [
    { name: 'text search', paths: times(QUERIES.map((q) => `/api/search/cats?q=${enc(q)}`)) },
    {
      name: 'nearby 2 km',
      paths: times(PLACES.map((p) => `/api/search/nearby?lat=${p.lat}&lng=${p.lng}&radius=2`)),
    },
  ];
}

async function rotation(app: AppProcess): Promise<number | null> {
  const metrics = await (await fetch(`${app.baseUrl}/metrics`)).text();
  const found = /^db_replica_in_rotation\{[^}]*\} (\d+)/m.exec(metrics);
  return found ? Number(found[1]) : null;
}

export const scenario: Scenario = {
  name: 'replicas',
  async run({ quick }) {
    const size = quick ? { cats: 5_000, bodegas: 1_000 } : { cats: 20_000, bodegas: 4_000 };
    const repeat = quick ? 5 : 20;
    const perView = quick ? 30 : 100;
    const writes = quick ? 40 : 200;
    let primary: PostgresInstance | null = null;
    let replica: ReplicaInstance | null = null;
    const apps: AppProcess[] = [];
    try {
      primary = await startPostgres();
      const config = {
        ...loadConfig({
          NODE_ENV: 'test',
          GEOCODER: 'off',
          LOG_LEVEL: 'warn',
          JWT_SECRET: randomBytes(32).toString('hex'),
          DATABASE_URL: primary.url,
        }),
        writeRateLimitPerMinute: 0,
        seedOnEmpty: false,
      };
      const database = await openDatabase({ url: primary.url });
      await migrateToLatest(database.db);
      const services = await createServices(config, {
        database,
        queue: createInlineQueue(database),
        migrate: false,
      });
      try {
        const city = await generateCity(services, size);
        console.log(
          `   generated ${city.cats} cats in ${city.bodegas} bodegas in ${city.seconds.toFixed(0)} s`,
        );
        await settleTables(database, ['cats', 'bodegas', 'search_words', 'map_cells', 'map_places']);
      } finally {
        await closeServices(services);
      }
      // The standby is taken from the loaded primary and streams from it from then on.
      replica = await startReplica(primary);
      const env = { DATABASE_URL: primary.url, SEARCH_CACHE_ENTRIES: '0', GEOCODER: 'off' };
      const replicated = await startAppProcess('api', { ...env, DATABASE_REPLICA_URLS: replica.url });
      apps.push(replicated);
      const primaryOnly = await startAppProcess('api', env);
      apps.push(primaryOnly);
      await waitFor(
        async () => (await rotation(replicated)) === 1,
        30_000,
        'the replica to join the rotation',
      );

      const kinds = [
        ...searchPaths(repeat),
        ...VIEWS.map((view, i) => ({
          name: `map ${view.name}`,
          paths: mapRequests(view, false, perView, 41 + i).map((r) => r.path),
        })),
      ];
      // Warm-up with the very requests measured: both processes' code compiled, and the standby,
      // new from its base backup, holding in its buffers the pages they read, as the primary that
      // wrote the city does (with 20 requests of each kind only, the small map views measured
      // 0.5 to 0.7 ms slower on the standby).
      for (const kind of kinds) await compare(replicated, primaryOnly, kind.paths);

      const rows: BenchRow[] = [];
      for (const kind of kinds) {
        const m = await compare(replicated, primaryOnly, kind.paths);
        console.log(
          `   ${kind.name.padEnd(20)} replica ${m.replica.toFixed(2)} ms, primary alone ${m.primary.toFixed(2)} ms (${kind.paths.length} requests each)`,
        );
        rows.push(
          row(
            'replicas',
            `${kind.name} median through the replica`,
            'ms',
            m.replica,
            m.primary,
            'primary alone',
            {
              text: 'ratio <= 1.1',
              pass: m.replica / m.primary <= 1.1,
            },
          ),
        );
      }

      // 2. Read-your-writes against a plain read, on the process with the replica.
      const writer = await register(replicated.baseUrl, 'benchwriter');
      const addCat = async (n: number): Promise<{ id: number; position: string }> => {
        const res = await fetch(`${replicated.baseUrl}/api/cats`, {
          method: 'POST',
          headers: { authorization: `Bearer ${writer.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            name: `Written Cat ${n}`,
            bodega_name: `Written Deli ${n}`,
            address: `${n} Replay St`,
            latitude: 40.72,
            longitude: -73.98,
          }),
        });
        const body = await json(res);
        const position = res.headers.get('x-log-position');
        if (res.status !== 201 || !position)
          throw new Error(`adding a cat: ${res.status} ${JSON.stringify(body)}`);
        return { id: body.cat.id, position };
      };
      const ryw: number[] = [];
      const plain: number[] = [];
      let previous = await addCat(0);
      await waitFor(
        async () => (await fetch(`${replicated.baseUrl}/api/cats/${previous.id}`)).status === 200,
        10_000,
        'the first written cat on the replica',
      );
      for (let n = 1; n <= writes + 10; n++) {
        const cat = await addCat(n);
        const readOwn = () =>
          timedGet(`${replicated.baseUrl}/api/cats/${cat.id}`, { 'x-log-position': cat.position });
        const readOther = () => timedGet(`${replicated.baseUrl}/api/cats/${previous.id}`);
        // Which read follows the write at once alternates: what the write leaves running (its
        // replay, the process's work after the reply) then weighs alike on both.
        let own: number;
        let other: number;
        if (n % 2 === 0) {
          own = await readOwn();
          other = await readOther();
        } else {
          other = await readOther();
          own = await readOwn();
        }
        // The first ten are warm-up.
        if (n > 10) {
          ryw.push(own);
          plain.push(other);
        }
        previous = cat;
      }
      const [rywMs, plainMs] = [median(ryw), median(plain)];
      console.log(
        `   read-your-writes: median ${rywMs.toFixed(2)} ms, p95 ${percentile(
          [...ryw].sort((a, b) => a - b),
          95,
        ).toFixed(2)} ms; plain read median ${plainMs.toFixed(2)} ms (${writes} writes)`,
      );
      rows.push(
        row(
          'replicas',
          'cat page read right after its write (X-Log-Position), median',
          'ms',
          rywMs,
          plainMs,
          'plain read, same process',
          { text: 'ratio <= 1.5', pass: rywMs / plainMs <= 1.5 },
        ),
      );
      console.log(`   load average after the run ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`);
      return rows;
    } finally {
      for (const app of apps) await app.kill('SIGTERM');
      await replica?.destroy();
      await primary?.destroy();
    }
  },
};
