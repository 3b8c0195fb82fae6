// The search page's street map over the whole city in headless Chromium with the CPU slowed 4x:
// the page opens on the city's clusters, zooms in three steps and pans by keyboard (each step a
// new /api/map answer drawn as cluster buttons), zooms out, and runs "Search this area". The
// figure is the longest main-thread task of the walk (target <= 100 ms), from a long-task observer
// installed before the page's first script; the baseline is the same walk on an empty city, so the
// difference is what the clusters cost. MapLibre draws a one-layer local style (no internet here).
import { createServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { createInlineQueue } from '../../server/queue/inline.ts';
import { createServices } from '../../server/services.ts';
import type { Database } from '../../server/db/database.ts';
import { ensureClientBuilt, launchBrowser } from '../../tests/browser/harness.ts';
import { BENCH_DATA_KEY, row } from '../lib.ts';
import type { BenchRow } from '../types.ts';

const CPU_SLOWDOWN = 4;
const LONG_TASK_TARGET_MS = 100;
const STEP_WAIT_MS = 8_000;
/**
 * Playwright drives the page through the inspector, which makes V8 record a stack trace with line
 * and column for every error the page creates, and V8 re-parses every function on the stack to
 * find them. React DOM creates three errors as its module starts, inside its module's one large
 * function, so the inspector alone made React DOM's start a page's longest task: 215 to 470 ms
 * (with the inspector) against 13 to 200 ms (positions kept at compile) in alternating loads here.
 * A visitor's browser has no inspector attached. With positions kept as functions are compiled,
 * the inspector costs nothing more, and compiling costs a little more than in a visitor's browser:
 * if anything the figure is pessimistic.
 */
const BROWSER_ARGS = ['--js-flags=--no-enable-lazy-source-positions'];

const STYLE = {
  version: 8,
  name: 'bench background',
  sources: {},
  layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#efe9e1' } }],
};

type Walk = {
  longest: number;
  /** When the longest task started, in ms after the page's navigation began: tells its phase apart. */
  longestAt: number;
  /** What the longest task was doing, from the animation frame that holds it (see describeFrame). */
  longestWhat: string;
  /** The longest after the first clusters were drawn: while zooming, panning and searching. */
  longestMoving: number;
  total: number;
  count: number;
  clusters: number;
};

/** Serves the app (client included) on a database, in this process, on a free port. */
async function serveApp(database: Database, url: string, styleUrl: string) {
  const config = {
    ...loadConfig({
      NODE_ENV: 'production',
      DATA_KEY: BENCH_DATA_KEY,
      GEOCODER: 'off',
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      DATABASE_URL: url,
      MAP_STYLE_URL: styleUrl,
    }),
    writeRateLimitPerMinute: 0,
    seedOnEmpty: false,
  };
  const services = await createServices(config, {
    database,
    queue: createInlineQueue(database),
    migrate: false,
  });
  const app = await buildApp(services, { serveClient: true });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    // The database belongs to the caller: close the app and its queue, not the pool.
    stop: async () => {
      await app.close();
      await services.queue.close();
    },
  };
}

/** Resolves at the next /api/map answer, or after STEP_WAIT_MS if the step asked for none. */
function nextClusters(page: Page): Promise<unknown> {
  return page
    .waitForResponse((r) => r.url().includes('/api/map?'), { timeout: STEP_WAIT_MS })
    .then(() => page.waitForTimeout(250))
    .catch(() => undefined);
}

/** A long animation frame, as the page's observer keeps it. */
type Frame = {
  start: number;
  end: number;
  rendering: number;
  scripts: { invoker: string; sourceURL: string; ms: number }[];
};

/** A script file runs as itself ("index-….js"); a callback is named with its chunk ("(react)"). */
function scriptLabel({ invoker, sourceURL }: { invoker: string; sourceURL: string }): string {
  const file = (url: string) => url.split('/').pop() ?? '';
  if (invoker.startsWith('http')) return file(invoker);
  return `${invoker} (${file(sourceURL).replace(/-[\w-]{8}\.js$/, '')})`;
}

/**
 * The scripts and the rendering of the animation frame that holds a task, longest first:
 * "index-….js 118 ms", "FrameRequestCallback (maplibre) 64 ms, rendering 71 ms". Empty when no
 * long animation frame overlaps it.
 */
function describeFrame(frames: Frame[], start: number, duration: number): string {
  // The frame that overlaps the task most (their clocks are read at slightly different points).
  const overlap = (f: Frame) => Math.min(f.end, start + duration) - Math.max(f.start, start);
  const frame = frames.filter((f) => overlap(f) > 0).sort((a, b) => overlap(b) - overlap(a))[0];
  if (!frame) return '';
  const parts = frame.scripts
    .filter((script) => script.ms >= 5)
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 2)
    .map((script) => `${scriptLabel(script)} ${script.ms.toFixed(0)} ms`);
  if (frame.rendering >= 5) parts.push(`rendering ${frame.rendering.toFixed(0)} ms`);
  return parts.join(', ');
}

async function walk(browser: Browser, baseUrl: string): Promise<Walk> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.addInitScript(() => {
      const seen: [number, number][] = [];
      const frames: Frame[] = [];
      const w = window as unknown as { __longTasks: [number, number][]; __frames: Frame[] };
      w.__longTasks = seen;
      w.__frames = frames;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) seen.push([entry.startTime, entry.duration]);
      }).observe({ type: 'longtask', buffered: true });
      // Long animation frames name the scripts that ran in them and how long rendering took. No
      // named functions in here: run through tsx, they would call a helper the page does not have.
      type Script = { invoker: string; sourceURL: string; duration: number };
      type LongFrame = PerformanceEntry & { renderStart: number; scripts: Script[] };
      if (PerformanceObserver.supportedEntryTypes.includes('long-animation-frame'))
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as LongFrame[])
            frames.push({
              start: entry.startTime,
              end: entry.startTime + entry.duration,
              rendering: entry.renderStart ? entry.startTime + entry.duration - entry.renderStart : 0,
              scripts: entry.scripts.map((script) => ({
                invoker: script.invoker,
                sourceURL: script.sourceURL,
                ms: script.duration,
              })),
            });
        }).observe({ type: 'long-animation-frame', buffered: true });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const first = nextClusters(page);
    await page.goto(`${baseUrl}/#/search`, { waitUntil: 'load', timeout: 60_000 });
    const map = page.getByRole('region', { name: /^Street map\./ });
    await map.waitFor({ timeout: 60_000 });
    await first;
    const clusters = await page.getByRole('button', { name: /near here$/ }).count();
    const opened = await page.evaluate(() => performance.now());
    await map.focus();
    for (const key of ['Equal', 'Equal', 'Equal', 'ArrowLeft', 'ArrowUp', 'Minus']) {
      const answered = nextClusters(page);
      await page.keyboard.press(key);
      await answered;
    }
    const area = page.getByRole('button', { name: 'Search this area' });
    if (await area.isVisible()) {
      const searched = page
        .waitForResponse((r) => r.url().includes('/api/search/'), { timeout: STEP_WAIT_MS })
        .catch(() => undefined);
      await area.click();
      await searched;
      await page.waitForTimeout(500);
    }
    const { all, frames } = await page.evaluate(() => {
      const w = window as unknown as { __longTasks: [number, number][]; __frames: Frame[] };
      return { all: w.__longTasks, frames: w.__frames };
    });
    const tasks = all.map(([, duration]) => duration);
    const moving = all.filter(([start]) => start >= opened).map(([, duration]) => duration);
    const [longestAt, longest] = all.reduce<[number, number]>(
      (top, task) => (task[1] > top[1] ? task : top),
      [0, 0],
    );
    return {
      longest,
      longestAt,
      longestWhat: describeFrame(frames, longestAt, longest),
      longestMoving: Math.max(0, ...moving),
      total: tasks.reduce((sum, t) => sum + t, 0),
      count: tasks.length,
      clusters,
    };
  } finally {
    await context.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * The walk `runs` times on the city's database and on an empty one (both migrated, neither written
 * here), each figure the median of its runs.
 */
export async function mapPageRows(
  city: { database: Database; url: string },
  empty: { database: Database; url: string },
  runs: number,
): Promise<BenchRow[]> {
  ensureClientBuilt();
  const styleServer: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
    response.end(JSON.stringify(STYLE));
  });
  await new Promise<void>((resolve) => styleServer.listen(0, '127.0.0.1', resolve));
  const address = styleServer.address();
  const styleUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/style.json`;
  const browser = await launchBrowser(BROWSER_ARGS);
  const figures: Record<'city' | 'empty', Walk[]> = { city: [], empty: [] };
  try {
    for (const [label, db] of [
      ['empty', empty],
      ['city', city],
    ] as const) {
      const app = await serveApp(db.database, db.url, styleUrl);
      try {
        await walk(browser, app.baseUrl); // warms the server's statements, not the browser
        for (let i = 0; i < runs; i++) figures[label].push(await walk(browser, app.baseUrl));
      } finally {
        await app.stop();
      }
      const show = figures[label]
        .map(
          (w) =>
            `${w.longest.toFixed(0)} ms at ${(w.longestAt / 1000).toFixed(1)} s${w.longestWhat ? ` [${w.longestWhat}]` : ''}, moving ${w.longestMoving.toFixed(0)} ms (${w.count} tasks, ${w.total.toFixed(0)} ms)`,
        )
        .join('; ');
      console.log(
        `   map page, ${label}: ${figures[label][0]?.clusters ?? 0} clusters at first; longest task per walk ${show}`,
      );
    }
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => styleServer.close(() => resolve()));
  }
  const longest = (label: 'city' | 'empty') => median(figures[label].map((w) => w.longest));
  const moving = (label: 'city' | 'empty') => median(figures[label].map((w) => w.longestMoving));
  const total = (label: 'city' | 'empty') => median(figures[label].map((w) => w.total));
  return [
    row(
      'map',
      `map page, longest task (CPU ${CPU_SLOWDOWN}x slower, median of ${runs} walks)`,
      'ms',
      longest('city'),
      longest('empty'),
      'the same walk over an empty city',
      { text: `<= ${LONG_TASK_TARGET_MS} ms`, pass: longest('city') <= LONG_TASK_TARGET_MS },
    ),
    row(
      'map',
      `map page, longest task while zooming, panning and searching the area`,
      'ms',
      moving('city'),
      moving('empty'),
      'the same walk over an empty city',
      { text: `<= ${LONG_TASK_TARGET_MS} ms`, pass: moving('city') <= LONG_TASK_TARGET_MS },
    ),
    row(
      'map',
      `map page, long tasks' total time (CPU ${CPU_SLOWDOWN}x slower)`,
      'ms',
      total('city'),
      total('empty'),
      'the same walk over an empty city',
    ),
  ];
}
