// Browser test harness: the real server (built client, embedded storage in temp folders) as a
// child process, and Debian's Chromium driven by playwright-core. Shared by every browser suite.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Json } from '../helpers/json.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOT_DIR = path.join(ROOT, 'artifacts', 'screenshots');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 812 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;

/** CI builds first; a local run without a build makes one, once. */
export function ensureClientBuilt(): void {
  if (existsSync(path.join(ROOT, 'client', 'dist', 'index.html'))) return;
  const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('npm run build failed');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export type RunningServer = {
  baseUrl: string;
  port: number;
  /** Everything the server printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
};

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not become healthy within 90 s:\n${output()}`);
}

/** Starts `main.ts all` on a free port with fresh, empty storage. */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  ensureClientBuilt();
  const port = await freePort();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bodega-browser-'));
  const dataDir = path.join(tmp, 'data');
  const uploadDir = path.join(tmp, 'uploads');
  mkdirSync(dataDir);
  mkdirSync(uploadDir);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    UPLOAD_DIR: uploadDir,
    SEED_ON_EMPTY: 'false',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    // No street map unless a test serves its own style: tests have no internet.
    MAP_STYLE_URL: 'none',
    ...extraEnv,
  };
  // Embedded storage unless a test asks for real services explicitly.
  if (!('DATABASE_URL' in extraEnv)) delete env.DATABASE_URL;
  if (!('REDIS_URL' in extraEnv)) delete env.REDIS_URL;
  delete env.GOOGLE_MAPS_API_KEY;
  if (extraEnv.GOOGLE_MAPS_API_KEY) env.GOOGLE_MAPS_API_KEY = extraEnv.GOOGLE_MAPS_API_KEY;

  const tsx = path.join(ROOT, 'node_modules', '.bin', 'tsx');
  const child = spawn(tsx, ['main.ts', 'all'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(forced);
    }
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, port, output: () => log, stop };
}

export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    headless: true,
  });
}

export type BrowserSuite = { readonly server: RunningServer; readonly browser: Browser };

/**
 * One server and one browser for the calling test file: started before its first test and
 * stopped after its last, browser first. `extraEnv` configures the server (see startServer).
 */
export function browserSuite(extraEnv: Record<string, string> = {}): BrowserSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(extraEnv);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the browser suite's ${what} is not started yet`);
    return value;
  };
  return {
    get server() {
      return started(server, 'server');
    },
    get browser() {
      return started(browser, 'browser');
    },
  };
}

export type PageOptions = { viewport?: ViewportName; token?: string };

/** A fresh context (own storage) and page; `token` signs the page in before any script runs. */
export async function newPage(
  browser: Browser,
  options: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const viewport = VIEWPORTS[options.viewport ?? 'desktop'];
  const context = await browser.newContext({
    viewport,
    deviceScaleFactor: 1,
    isMobile: options.viewport === 'phone',
    hasTouch: options.viewport === 'phone',
    locale: 'en-US',
    timezoneId: 'America/New_York',
  });
  if (options.token) {
    await context.addInitScript((token) => localStorage.setItem('token', token), options.token);
  }
  const page = await context.newPage();
  return { context, page };
}

export type ApiReply<T = Json> = { status: number; body: T };

export async function callApi<T = Json>(
  server: RunningServer,
  method: string,
  urlPath: string,
  body?: unknown,
  token?: string,
): Promise<ApiReply<T>> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${server.baseUrl}${urlPath}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

let userCounter = 0;

export type TestUser = { id: number; username: string; email: string; password: string; token: string };

/** Registers a new account through the API. */
export async function registerUser(server: RunningServer, prefix = 'user'): Promise<TestUser> {
  userCounter += 1;
  const username = `${prefix}${Date.now().toString(36)}${userCounter}`.slice(0, 30);
  const email = `${username}@example.com`;
  const password = 'whiskers123';
  const reply = await callApi(server, 'POST', '/api/auth/register', { username, email, password });
  if (reply.status !== 201) throw new Error(`register failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { id: reply.body.user.id, username, email, password, token: reply.body.access_token };
}

/** Writes artifacts/screenshots/<name>-<desktop|phone>.png (a full-page capture). */
export async function screenshot(page: Page, name: string, viewport: ViewportName): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}-${viewport}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

/** The toast showing `text` (toasts are live regions with the status role). */
export function toast(page: Page, text: string) {
  return page.getByRole('status').filter({ hasText: text });
}

/** Opens a hash route of the app, e.g. gotoRoute(page, server, '/search?q=tabby'). */
export async function gotoRoute(page: Page, server: RunningServer, route: string): Promise<void> {
  await page.goto(`${server.baseUrl}/#${route}`);
}
