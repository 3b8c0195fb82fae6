// Web client: gzipped JavaScript the home route loads (target <= 120 KB; baseline the React
// runtime chunk alone), and Largest Contentful Paint of home and search in headless Chromium with
// 4x CPU throttling (target <= 1.0 s; baseline a static HTML page served by the same server).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import {
  callApi,
  ensureClientBuilt,
  launchBrowser,
  registerUser,
  ROOT,
  startServer,
} from '../../tests/browser/harness.ts';
import { row } from '../lib.ts';
import type { BenchRow, Scenario } from '../types.ts';

const DIST = path.join(ROOT, 'client', 'dist');
const HOME_PAGE_SOURCE = 'src/features/home/routes/HomePage.tsx';
const JS_TARGET_KB = 120;
const LCP_TARGET_MS = 1000;
const CPU_SLOWDOWN = 4;

type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[]; src?: string };
type Manifest = Record<string, ManifestChunk>;

function gzipKb(file: string): number {
  return gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length / 1024;
}

/** The entry's static imports, plus the home page chunk and its static imports. */
export function homeRouteFiles(manifest: Manifest): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry);
  if (!entry) throw new Error('the build has no entry chunk');
  visit(entry[0]);
  // The home page may ship inside the entry; when it is its own chunk, count that too.
  const home = Object.keys(manifest).find((key) => key.endsWith(HOME_PAGE_SOURCE));
  if (home) visit(home);
  return [...files].filter((file) => file.endsWith('.js'));
}

function javascriptRows(): BenchRow[] {
  const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const files = homeRouteFiles(manifest);
  const total = files.reduce((sum, file) => sum + gzipKb(file), 0);
  const react = Object.values(manifest).find((chunk) => /(^|\/)react-[\w-]+\.js$/.test(chunk.file));
  const baseline = react ? gzipKb(react.file) : 0;
  return [
    row(
      'client',
      `home route JS, gzipped (${files.length} files)`,
      'KB',
      total,
      baseline,
      'React runtime chunk alone',
      { text: `<= ${JS_TARGET_KB} KB`, pass: total <= JS_TARGET_KB },
    ),
  ];
}

const STATIC_PAGE = '__bench-static.html';
const STATIC_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Bodega Cats</title></head>
<body style="font-family:system-ui;margin:0;background:#fdf8f3"><main style="padding:48px 16px;text-align:center">
<h1 style="font-size:56px">Find Bodega Cats in NYC</h1>
<p>Discover the cats that keep watch over the city's bodegas and delis.</p></main></body></html>`;

type LcpSample = { ms: number; element: string };

/** LCP of one fresh page load, in ms, with the CPU slowed down, and which element it was. */
async function measureLcp(browser: Browser, url: string, readySelector: string): Promise<LcpSample> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
    await page.locator(readySelector).first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(300);
    return await page.evaluate(
      () =>
        new Promise<LcpSample>((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries();
            const last = entries[entries.length - 1] as
              (PerformanceEntry & { element?: Element | null; size?: number }) | undefined;
            const element = last?.element;
            const className = element?.getAttribute('class')?.split(' ')[0];
            // A node the page has replaced since it painted (e.g. prerendered markup) has no element.
            const name = element
              ? `${element.tagName.toLowerCase()}${className ? `.${className}` : ''}`
              : 'replaced node';
            resolve({ ms: last?.startTime ?? 0, element: last ? `${name}, size ${last.size ?? 0}` : 'none' });
          }).observe({ type: 'largest-contentful-paint', buffered: true });
          setTimeout(() => resolve({ ms: 0, element: 'none' }), 2000);
        }),
    );
  } finally {
    await context.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function lcpRows(quick: boolean): Promise<BenchRow[]> {
  const runs = quick ? 3 : 7;
  // Written before the server starts: it registers the files of client/dist when it boots.
  writeFileSync(path.join(DIST, STATIC_PAGE), STATIC_HTML);
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    // A few cats so the search screen has a real list and map to paint.
    const owner = await registerUser(server, 'bench');
    for (let i = 0; i < 12; i++) {
      await callApi(
        server,
        'POST',
        '/api/cats',
        {
          name: `Bench Cat ${i}`,
          bodega_name: `Deli ${i % 4}`,
          address: `${i % 4} Broadway, New York, NY`,
          description: 'Sleeps on the bread shelf.',
          latitude: 40.72 + (i % 4) * 0.01,
          longitude: -73.99 + (i % 4) * 0.005,
        },
        owner.token,
      );
    }
    const pages = [
      { label: 'static HTML page', url: `${server.baseUrl}/${STATIC_PAGE}`, ready: 'h1' },
      { label: 'home', url: `${server.baseUrl}/#/`, ready: 'h1' },
      { label: 'search', url: `${server.baseUrl}/#/search`, ready: 'h1' },
    ];
    const medians: Record<string, number> = {};
    for (const { label, url, ready } of pages) {
      await measureLcp(browser, url, ready); // warm the server, not the browser cache
      const samples: LcpSample[] = [];
      for (let i = 0; i < runs; i++) samples.push(await measureLcp(browser, url, ready));
      medians[label] = median(samples.map((s) => s.ms));
      // Which element the figure is about, so a faster number can be checked against what painted.
      const elements = [...new Set(samples.map((s) => s.element))].join(', ');
      console.log(
        `   LCP ${label}: ${samples.map((s) => Math.round(s.ms)).join(' ')} ms; element ${elements}`,
      );
    }
    const baseline = medians['static HTML page'] ?? 0;
    return ['home', 'search'].map((label) =>
      row(
        'client',
        `LCP ${label} (CPU ${CPU_SLOWDOWN}x slower, median of ${runs})`,
        'ms',
        medians[label] ?? 0,
        baseline,
        'static HTML page, same server',
        { text: `<= ${LCP_TARGET_MS} ms`, pass: (medians[label] ?? Infinity) <= LCP_TARGET_MS },
      ),
    );
  } finally {
    rmSync(path.join(DIST, STATIC_PAGE), { force: true });
    await browser.close();
    await server.stop();
  }
}

export const scenario: Scenario = {
  name: 'client',
  async run({ quick }) {
    ensureClientBuilt();
    if (!existsSync(path.join(DIST, '.vite', 'manifest.json'))) {
      spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    }
    return [...javascriptRows(), ...(await lcpRows(quick))];
  },
};
