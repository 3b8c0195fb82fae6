// The map at city scale: 100,000 cats in 20,000 bodegas (10,000 / 2,000 with --quick), appended
// through the real store. GET /api/map for the whole city at zoom 10, a borough at zoom 13 and a
// neighbourhood at zoom 16, with and without a filter, each request a box not asked before
// (nudged a little each time), to an app process that has first served other boxes of every view
// (warmApp): one at a time (median, p95) and 32 in flight against the same SQL sent directly at
// its best concurrency. Then what keeping the map cells costs appends: shops and their cats
// appended one shop per transaction with every projection and without the map's, in alternating
// rounds. Between the two, the search page's map in Chromium (map-page.ts).
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { loadConfig } from '../../server/config.ts';
import { mapClusters } from '../../server/map/clusters.ts';
import { mapSearchOf, type MapQuery } from '../../server/map/routes.ts';
import { createInlineQueue } from '../../server/queue/inline.ts';
import { createServices, type Services } from '../../server/services.ts';
import { generateCity, randomSource } from '../city-data.ts';
import { BENCH_DATA_KEY, createBenchDatabase, row, settleTables } from '../lib.ts';
import type { BenchRow, Scenario } from '../types.ts';
import { mapPageRows } from './map-page.ts';
import { CONNECTIONS, httpRun, measureKind, WARM_REQUESTS, type Kind, type Request } from './search-cold.ts';
import { startAppProcess, stopAppProcess } from './search.ts';

type View = { name: string; zoom: number; box: { west: number; south: number; east: number; north: number } };

export const VIEWS: View[] = [
  { name: 'city z10', zoom: 10, box: { west: -74.26, south: 40.49, east: -73.7, north: 40.92 } },
  { name: 'Brooklyn z13', zoom: 13, box: { west: -74.05, south: 40.57, east: -73.85, north: 40.74 } },
  { name: 'East Village z16', zoom: 16, box: { west: -73.992, south: 40.722, east: -73.976, north: 40.731 } },
];
/** Requests of each view a new app process serves before it is measured (see warmApp). */
const APP_WARM_REQUESTS = 3000;
const FILTER = { query: '&breed=Tabby&is_friendly=true', fields: { breed: 'Tabby', is_friendly: 'true' } };

/** Distinct requests for a view: the box moved by up to a tenth of its size each time. */
export function requests(view: View, filtered: boolean, count: number, seed: number): Request[] {
  const rnd = randomSource(seed).next;
  return Array.from({ length: count }, () => {
    const { west, south, east, north } = view.box;
    const dx = (rnd() - 0.5) * 0.2 * (east - west);
    const dy = (rnd() - 0.5) * 0.2 * (north - south);
    const query = {
      west: west + dx,
      south: south + dy,
      east: east + dx,
      north: north + dy,
      zoom: view.zoom,
      ...(filtered ? FILTER.fields : {}),
    } as MapQuery;
    const params = `west=${query.west}&south=${query.south}&east=${query.east}&north=${query.north}&zoom=${view.zoom}`;
    return {
      path: `/api/map?${params}${filtered ? FILTER.query : ''}`,
      run: async (db) => mapClusters(db, await mapSearchOf(db, query)),
    };
  });
}

function kinds(perKind: number, loaded: number): Kind[] {
  return VIEWS.flatMap((view, i) =>
    [false, true].map((filtered) => ({
      name: `map ${view.name}${filtered ? ' filtered' : ''}`,
      p50Target: 10,
      p95Target: 25,
      requests: requests(view, filtered, perKind + loaded + WARM_REQUESTS, 19 + 2 * i + Number(filtered)),
      loaded,
    })),
  );
}

/**
 * Every view's requests, `count` of each (other boxes than the measured ones), sent to a newly
 * started app before anything is measured. A server that has been up a while runs its code
 * compiled by V8's optimising tiers; a new process runs it unoptimised for its first few thousand
 * requests. Measured here on 100,000 cats, 32 in flight, whole-city boxes: a new process's first
 * 2,000 requests 1,032 req/s at 0.66 ms of its CPU each, the next 2,000 1,243 req/s, the next two
 * 2,000s 1,377 and 1,371 req/s at 0.27 ms each. Without this the first view measured (the whole
 * city, the cheapest statement) was measured on a process still compiling, and the figure said
 * more about the order of the views than about the server.
 */
async function warmApp(baseUrl: string, count: number): Promise<void> {
  for (const [i, view] of VIEWS.entries())
    for (const filtered of [false, true]) {
      const paths = requests(view, filtered, count, 1019 + 2 * i + Number(filtered)).map((r) => r.path);
      const { errors } = await httpRun(baseUrl, paths, CONNECTIONS);
      if (errors > 0) throw new Error(`warming the app on ${view.name}: ${errors} failed requests`);
    }
}

/** Events per second appending shops with their cats, one shop per transaction, 8 writers. */
async function appendRate(
  services: Services,
  withMap: boolean,
  shops: number,
  seed: number,
): Promise<number> {
  // The map is kept by a trigger on the log at commit (see server/map/projection.ts).
  await sql`alter table events ${sql.raw(withMap ? 'enable' : 'disable')} trigger map_at_commit`.execute(
    services.database.db,
  );
  const stats = await generateCity(services, {
    cats: shops * 5,
    bodegas: shops,
    seed,
    bodegasPerTransaction: 1,
  });
  return stats.events / stats.seconds;
}

async function appendCost(services: Services, shops: number): Promise<BenchRow[]> {
  const rates = { with: [] as number[], without: [] as number[] };
  for (let round = 0; round < 3; round++) {
    rates.without.push(await appendRate(services, false, shops, 100 + round));
    rates.with.push(await appendRate(services, true, shops, 200 + round));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const [withMap, without] = [median(rates.with), median(rates.without)];
  console.log(
    `   appends: ${withMap.toFixed(0)} events/s with the map cells vs ${without.toFixed(0)} without (rounds ${rates.with.map((r) => r.toFixed(0)).join('/')} vs ${rates.without.map((r) => r.toFixed(0)).join('/')})`,
  );
  return [
    row('map', 'append throughput with the map projection', 'events/s', withMap, without, 'without it', {
      text: 'cost <= 10%',
      pass: withMap >= 0.9 * without,
    }),
  ];
}

export const scenario: Scenario = {
  name: 'map',
  async run({ quick }) {
    const size = quick ? { cats: 10_000, bodegas: 2_000 } : { cats: 100_000, bodegas: 20_000 };
    const perKind = quick ? 40 : 200;
    const bench = await createBenchDatabase('map');
    const config = {
      ...loadConfig({
        NODE_ENV: 'production',
        DATA_KEY: BENCH_DATA_KEY,
        GEOCODER: 'off',
        JWT_SECRET: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'warn',
        DATABASE_URL: bench.url,
      }),
      writeRateLimitPerMinute: 0,
      seedOnEmpty: false,
    };
    const services = await createServices(config, {
      database: bench.database,
      queue: createInlineQueue(bench.database),
      migrate: false,
    });
    let app: Awaited<ReturnType<typeof startAppProcess>> | null = null;
    try {
      const city = await generateCity(services, size);
      console.log(
        `   generated ${city.cats} cats in ${city.bodegas} bodegas in ${city.seconds.toFixed(0)} s`,
      );
      await settleTables(bench.database, ['cats', 'bodegas', 'map_cells', 'map_places']);
      const { rows: cells } = await sql<{ n: number }>`select count(*)::int as n from map_cells`.execute(
        bench.database.db,
      );
      console.log(`   ${cells[0]!.n} map cells over levels 10-16`);
      app = await startAppProcess(bench.url, 0);
      await warmApp(app.baseUrl, quick ? 300 : APP_WARM_REQUESTS);
      const rows: BenchRow[] = [];
      for (const kind of kinds(perKind, quick ? 400 : 2000))
        rows.push(...(await measureKind(bench.url, app.baseUrl, kind, perKind, 'map')));
      await stopAppProcess(app.child);
      app = null;
      const empty = await createBenchDatabase('map_empty');
      try {
        rows.push(...(await mapPageRows(bench, empty, quick ? 3 : 5)));
      } finally {
        await empty.drop();
      }
      rows.push(...(await appendCost(services, quick ? 200 : 1000)));
      console.log(`   load average after the run ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`);
      return rows;
    } finally {
      if (app) await stopAppProcess(app.child);
      await services.queue.close();
      await bench.drop();
    }
  },
};
