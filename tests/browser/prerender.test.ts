// The prerendered screens of the built index.html against the real server: a signed-out visitor
// sees home (or the search page's frame) before the app's code has run, the app's first render
// replaces it with the same markup and looks the same, and a visitor with a stored token never
// sees the signed-out screen.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  browserSuite,
  gotoRoute,
  newPage,
  registerUser,
  SCREENSHOT_DIR,
  type ViewportName,
} from './harness.ts';

const suite = browserSuite();

/** One change of #root's own children: what it held afterwards. */
type RootChange = {
  at: number;
  /** #root's markup, attributes sorted and inline styles written the one way the DOM writes them. */
  html: string;
  /** True when the nodes are not the ones of the change before (they were replaced). */
  replaced: boolean;
  fullPageSpinner: boolean;
  signedOutNav: boolean;
};

/** Before any of the page's scripts: records every change of #root's children. */
function recordRootChanges() {
  const changes: RootChange[] = [];
  (window as unknown as { rootChanges: RootChange[] }).rootChanges = changes;
  let marker = 0;
  new MutationObserver((records) => {
    const root = document.getElementById('root');
    if (!root || !records.some((record) => record.target === root)) return;
    const first = root.firstElementChild as (Element & { changeMarker?: number }) | null;
    const replaced = first?.changeMarker === undefined || first.changeMarker !== marker;
    marker += 1;
    if (first) first.changeMarker = marker;
    // Attributes in one order, inline styles written one way: React's client sets them one by one.
    const copy = root.cloneNode(true) as HTMLElement;
    for (const element of copy.querySelectorAll<HTMLElement>('*')) {
      const style = element.getAttribute('style') === null ? null : element.style.cssText;
      const attributes = [...element.attributes].map((a) => [a.name, a.value] as const);
      for (const [name] of attributes) element.removeAttribute(name);
      for (const [name, value] of attributes.sort(([a], [b]) => a.localeCompare(b))) {
        element.setAttribute(name, name === 'style' && style !== null ? style : value);
      }
    }
    changes.push({
      at: performance.now(),
      html: copy.innerHTML,
      replaced,
      fullPageSpinner: root.querySelector('.full-page-spinner') !== null,
      signedOutNav: root.querySelector('a[href="#/login"]') !== null,
    });
  }).observe(document, { childList: true, subtree: true });
}

async function rootChanges(page: Page, atLeast: number): Promise<RootChange[]> {
  await page.waitForFunction(
    (count) => (window as unknown as { rootChanges: RootChange[] }).rootChanges.length >= count,
    atLeast,
  );
  return page.evaluate(() => (window as unknown as { rootChanges: RootChange[] }).rootChanges);
}

function firstContentfulPaint(page: Page): Promise<number | undefined> {
  return page.evaluate(() => performance.getEntriesByName('first-contentful-paint', 'paint')[0]?.startTime);
}

async function openRecorded(route: string, options: { viewport?: ViewportName; token?: string } = {}) {
  const opened = await newPage(suite.browser, options);
  await opened.page.addInitScript(recordRootChanges);
  await gotoRoute(opened.page, suite.server, route);
  return opened;
}

function savePng(name: string, png: Buffer) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  writeFileSync(path.join(SCREENSHOT_DIR, `${name}.png`), png);
}

describe('prerendered screens', () => {
  it('paints the signed-out home before the app starts; the app replaces it with the same markup', async () => {
    const { context, page } = await openRecorded('/');
    const [prerendered, app] = await rootChanges(page, 2);
    expect(prerendered?.html).toContain('Find Bodega Cats in NYC');
    expect(prerendered?.signedOutNav).toBe(true);
    expect(app?.replaced).toBe(true);
    expect(app?.html).toBe(prerendered?.html);
    // The browser painted the prerendered screen before the app's render replaced it.
    const fcp = await firstContentfulPaint(page);
    expect(fcp).toBeDefined();
    expect(fcp!).toBeLessThanOrEqual(app!.at);
    await page.waitForTimeout(300);
    const changes = await rootChanges(page, 2);
    expect(changes.some((change) => change.fullPageSpinner || change.html === '')).toBe(false);
    expect(await page.locator('template').count()).toBe(0);
    await context.close();
  });

  it("paints the search page's heading first; the app's first render keeps it above the same frame or the screen", async () => {
    const { context, page } = await openRecorded('/search?q=tabby');
    const [prerendered, app] = await rootChanges(page, 2);
    expect(prerendered?.html).toContain('<h1>Search Bodega Cats</h1>');
    expect(prerendered?.html).toContain('aria-current="page"');
    expect(app?.replaced).toBe(true);
    // The app's first render is the same markup down to the heading's end. Below it, the same
    // loading frame, or the screen itself when its code arrived before React's first render (it
    // starts loading with the router, so on a fast machine it often has).
    const throughHeading = (html = '') => {
      const end = html.indexOf('</header>', html.indexOf('search-page__header'));
      return end < 0 ? '' : html.slice(0, end + '</header>'.length);
    };
    expect(throughHeading(prerendered?.html)).toContain('<h1>Search Bodega Cats</h1>');
    expect(throughHeading(app?.html)).toBe(throughHeading(prerendered?.html));
    if (app?.html !== prerendered?.html)
      expect(app?.html).toContain('<form class="search-controls" role="search">');
    await page.getByRole('button', { name: 'Search', exact: true }).waitFor();
    expect((await rootChanges(page, 2)).some((change) => change.fullPageSpinner)).toBe(false);
    await context.close();
  });

  it('never shows the signed-out screen to a visitor with a stored token', async () => {
    const user = await registerUser(suite.server, 'prerender');
    for (const route of ['/', '/search']) {
      const { context, page } = await openRecorded(route, { token: user.token });
      await page.getByRole('navigation', { name: 'Main' }).getByText(user.username).waitFor();
      const changes = await rootChanges(page, 2);
      expect(changes[0]?.fullPageSpinner).toBe(true);
      expect(changes.some((change) => change.signedOutNav)).toBe(false);
      await context.close();
    }
  });

  it('leaves routes it has no screen for to the app', async () => {
    const { context, page } = await openRecorded('/login');
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    const changes = await rootChanges(page, 1);
    expect(changes.some((change) => change.html.includes('Find Bodega Cats in NYC'))).toBe(false);
    await context.close();
  });

  for (const viewport of ['desktop', 'phone'] as const) {
    it(`looks the same before and after the app takes over (home, ${viewport})`, async () => {
      const shot = { fullPage: true, animations: 'disabled' } as const;
      // Without the app's modules the page stays as prerendered.
      const before = await newPage(suite.browser, { viewport });
      await before.page.route(/\/assets\/.+\.js$/, (route) =>
        route.request().url().includes('/show-frame-') ? route.continue() : route.abort(),
      );
      await gotoRoute(before.page, suite.server, '/');
      await before.page.getByRole('heading', { name: 'Find Bodega Cats in NYC' }).waitFor();
      const prerendered = await before.page.screenshot(shot);
      savePng(`prerendered-home-${viewport}`, prerendered);
      await before.context.close();

      const after = await openRecorded('/', { viewport });
      await rootChanges(after.page, 2);
      const rendered = await after.page.screenshot(shot);
      savePng(`rendered-home-${viewport}`, rendered);
      await after.context.close();
      expect(prerendered.equals(rendered)).toBe(true);
    });
  }
});
