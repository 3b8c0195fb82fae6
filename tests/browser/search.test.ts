// The search screen against the real server: text search with filters, the built-in map
// plotting every result, and a second browser seeing a cat added elsewhere appear live.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  browserSuite,
  callApi,
  gotoRoute,
  newPage,
  registerUser,
  type TestUser,
  type ViewportName,
  VIEWPORTS,
} from './harness.ts';

const suite = browserSuite();
let owner: TestUser;

type NewCat = {
  name: string;
  bodega_name: string;
  address: string;
  breed: string;
  latitude?: number;
  longitude?: number;
};

const CATS: NewCat[] = [
  {
    name: 'Whiskers the Tabby',
    bodega_name: 'Sunrise Deli',
    address: '100 W 40th St, New York, NY',
    breed: 'Tabby',
    latitude: 40.7536,
    longitude: -73.9848,
  },
  {
    name: 'Mango',
    bodega_name: 'Sunrise Deli',
    address: '100 W 40th St, New York, NY',
    breed: 'Orange Tabby',
    latitude: 40.7536,
    longitude: -73.9848,
  },
  {
    name: 'Pepper',
    bodega_name: 'Corner Bodega',
    address: '200 E 10th St, New York, NY',
    breed: 'Siamese',
    latitude: 40.7295,
    longitude: -73.9865,
  },
  {
    name: 'Shadow',
    bodega_name: 'Harlem Grocery',
    address: '300 Lenox Ave, New York, NY',
    breed: 'Tabby',
    latitude: 40.8075,
    longitude: -73.9453,
  },
  { name: 'Ghost', bodega_name: 'Nowhere Market', address: '1 Unknown Pl, New York, NY', breed: 'Siamese' },
];

async function addCat(cat: NewCat, token = owner.token) {
  const reply = await callApi(
    suite.server,
    'POST',
    '/api/cats',
    { description: 'A friendly shop cat.', ...cat },
    token,
  );
  if (reply.status !== 201) throw new Error(`add cat failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.cat as { id: number; name: string };
}

beforeAll(async () => {
  owner = await registerUser(suite.server, 'owner');
  for (const cat of CATS) await addCat(cat);
});

function resultsHeading(page: Page) {
  return page.getByRole('heading', { name: /^(Cats|Bodegas) Found \(\d+\)$/ });
}

async function waitForCount(page: Page, label: 'Cats' | 'Bodegas', count: number) {
  await page.getByRole('heading', { name: `${label} Found (${count})` }).waitFor({ timeout: 15_000 });
}

const markers = (page: Page) => page.locator('svg.fmap__canvas .fmap-marker');

describe('searching in the browser', () => {
  it('runs a text search, narrows it with filters, and keeps it in the URL', async () => {
    const { context, page } = await newPage(suite.browser);
    await gotoRoute(page, suite.server, '/search');
    await page.getByRole('heading', { name: 'Search Bodega Cats' }).waitFor();
    await waitForCount(page, 'Cats', CATS.length);

    await page.getByLabel('Search cats and bodegas').fill('tabby');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await waitForCount(page, 'Cats', 3);
    expect(page.url()).toContain('q=tabby');

    await page.getByRole('button', { name: /^Filters/ }).click();
    await page.getByLabel('Breed', { exact: true }).selectOption('Tabby');
    await waitForCount(page, 'Cats', 2);
    const names = await page.getByTestId('cat-card').locator('h3').allTextContents();
    expect(names.sort()).toEqual(['Shadow', 'Whiskers the Tabby']);
    await page.getByRole('group', { name: 'Active filters' }).getByText('Breed: Tabby').waitFor();
    expect(await page.locator('.filter-badge').textContent()).toBe('!');
    expect(page.url()).toContain('breed=Tabby');

    await page.reload();
    await waitForCount(page, 'Cats', 2);
    expect(await page.getByLabel('Search cats and bodegas').inputValue()).toBe('tabby');

    await page.getByRole('button', { name: 'Remove filter Breed: Tabby' }).click();
    await waitForCount(page, 'Cats', 3);
    expect(page.url()).not.toContain('breed=');
    await context.close();
  });

  it('searches bodegas on their tab, with the verified and cat-count filters', async () => {
    const { context, page } = await newPage(suite.browser);
    await gotoRoute(page, suite.server, '/search?tab=bodegas');
    await waitForCount(page, 'Bodegas', 4);
    expect(await page.getByRole('tab', { name: 'Search Bodegas' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    await gotoRoute(page, suite.server, '/search?tab=bodegas&min_cats=2');
    await waitForCount(page, 'Bodegas', 1);
    await page.getByTestId('bodega-card').getByText('Sunrise Deli').waitFor();
    await page.getByRole('tab', { name: 'Search Cats' }).click();
    await waitForCount(page, 'Cats', CATS.length);
    await context.close();
  });

  it('plots every located result on the built-in map, with legend and location list', async () => {
    const { context, page } = await newPage(suite.browser);
    await gotoRoute(page, suite.server, '/search');
    await waitForCount(page, 'Cats', CATS.length);
    const located = CATS.filter((c) => c.latitude !== undefined).length;
    await expect.poll(() => markers(page).count()).toBe(located);
    const legend = page.getByRole('list', { name: 'Map legend' });
    expect(await legend.textContent()).toBe('CatBodega');
    await page.getByText(`Locations on the map (${located})`).waitFor();

    // Every marker sits inside the visible map, and Harlem is north of the East Village.
    const box = (await page.locator('svg.fmap__canvas').boundingBox())!;
    const positions = await markers(page).evaluateAll((nodes) =>
      nodes.map((n) => ({
        label: n.getAttribute('aria-label') ?? '',
        rect: n.getBoundingClientRect().toJSON(),
      })),
    );
    for (const { rect } of positions) {
      expect(rect.x).toBeGreaterThanOrEqual(box.x);
      expect(rect.x + rect.width).toBeLessThanOrEqual(box.x + box.width);
      expect(rect.y).toBeGreaterThanOrEqual(box.y);
      expect(rect.y + rect.height).toBeLessThanOrEqual(box.y + box.height);
    }
    const y = (name: string) => positions.find((p) => p.label.includes(name))!.rect.y;
    expect(y('Shadow')).toBeLessThan(y('Pepper'));

    // Hover shows the info window; keyboard Enter opens the cat.
    const pepper = page.getByRole('link', { name: /^Cat: Pepper/ });
    await pepper.hover();
    const info = page.getByRole('dialog', { name: 'Cat Pepper' });
    await info.getByRole('button', { name: 'View Details' }).waitFor();
    expect(await info.textContent()).toContain('0.0');
    await pepper.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/cat\/\d+$/);
    await context.close();
  });

  it('shows a cat added elsewhere on a second suite.browser live, with a polite announcement', async () => {
    const watcher = await newPage(suite.browser);
    await gotoRoute(watcher.page, suite.server, '/search');
    await waitForCount(watcher.page, 'Cats', CATS.length);
    const before = await markers(watcher.page).count();

    const other = await registerUser(suite.server, 'other');
    const cat = await addCat(
      {
        name: 'Biscuit',
        bodega_name: 'Bay Ridge Deli',
        address: '400 5th Ave, Brooklyn, NY',
        breed: 'Calico',
        latitude: 40.6441,
        longitude: -74.0177,
      },
      other.token,
    );

    await watcher.page
      .locator('.new-cats[aria-live="polite"]')
      .getByText('1 new cat')
      .waitFor({ timeout: 20_000 });
    await expect.poll(() => markers(watcher.page).count(), { timeout: 10_000 }).toBe(before + 1);
    await watcher.page.getByRole('link', { name: /^Cat: Biscuit/ }).waitFor();
    expect(await watcher.page.locator('.fmap-marker--new').count()).toBe(1);

    await watcher.page.getByRole('button', { name: /1 new cat/ }).click();
    await waitForCount(watcher.page, 'Cats', CATS.length + 1);
    await watcher.page.getByTestId('cat-card').filter({ hasText: 'Biscuit' }).waitFor();

    await callApi(suite.server, 'DELETE', `/api/cats/${cat.id}`, undefined, other.token);
    await waitForCount(watcher.page, 'Cats', CATS.length);
    await watcher.context.close();
  });

  it('explains a refused location, and sorts by distance once location is allowed', async () => {
    const refused = await newPage(suite.browser);
    await gotoRoute(refused.page, suite.server, '/search');
    await waitForCount(refused.page, 'Cats', CATS.length);
    await refused.page.getByRole('button', { name: 'Location' }).click();
    await refused.page.getByRole('status').filter({ hasText: 'Location access denied' }).waitFor();
    await refused.context.close();

    const { context, page } = await newPage(suite.browser);
    await context.grantPermissions(['geolocation']);
    await context.setGeolocation({ latitude: 40.7295, longitude: -73.9865 }); // next to Pepper
    await gotoRoute(page, suite.server, '/search');
    await waitForCount(page, 'Cats', CATS.length);
    await page.getByRole('button', { name: 'Location' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Location detected! Results sorted by distance.' })
      .waitFor();
    // Nearby search: only located cats within 10 km, nearest first, each with its distance.
    await waitForCount(page, 'Cats', 4);
    const first = page.getByTestId('cat-card').first();
    expect(await first.locator('h3').textContent()).toBe('Pepper');
    expect(await first.textContent()).toMatch(/0\.\d\d km/);
    expect(await page.getByRole('list', { name: 'Map legend' }).textContent()).toBe('CatBodegaYou');
    await page.locator('.fmap-user').waitFor();
    await context.close();
  });

  it('suggests as you type: keyboard selection, ARIA state, and a chosen cat opens', async () => {
    for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
      const { context, page } = await newPage(suite.browser, { viewport });
      await gotoRoute(page, suite.server, '/search');
      await waitForCount(page, 'Cats', CATS.length);
      const box = page.getByRole('combobox', { name: 'Search cats and bodegas' });
      await box.pressSequentially('whisk', { delay: 30 });
      const list = page.getByRole('listbox', { name: 'Suggestions' });
      await list.getByRole('option', { name: /Whiskers the Tabby/ }).waitFor();
      expect(await box.getAttribute('aria-expanded')).toBe('true');
      expect(await box.getAttribute('aria-controls')).toBe(await list.getAttribute('id'));
      const status = page.locator('.search-combobox [role="status"]');
      expect(await status.getAttribute('aria-live')).toBe('polite');
      await expect.poll(() => status.textContent()).toMatch(/^1 suggestion available/);

      // The list fits the screen, phone width included.
      const listBox = (await list.boundingBox())!;
      expect(listBox.x).toBeGreaterThanOrEqual(0);
      expect(listBox.x + listBox.width).toBeLessThanOrEqual(VIEWPORTS[viewport].width);

      await box.press('ArrowDown');
      const option = list.getByRole('option').first();
      expect(await box.getAttribute('aria-activedescendant')).toBe(await option.getAttribute('id'));
      expect(await option.getAttribute('aria-selected')).toBe('true');
      await box.press('Escape');
      expect(await box.getAttribute('aria-expanded')).toBe('false');
      await box.press('ArrowDown');
      await option.waitFor();
      await box.press('ArrowDown');
      await box.press('Enter');
      await page.waitForURL(/#\/cat\/\d+$/);
      await page.getByRole('heading', { name: 'Whiskers the Tabby' }).first().waitFor();
      await context.close();
    }
  });

  it('applies a chosen breed suggestion as the filter', async () => {
    const { context, page } = await newPage(suite.browser);
    await gotoRoute(page, suite.server, '/search');
    await waitForCount(page, 'Cats', CATS.length);
    const box = page.getByRole('combobox', { name: 'Search cats and bodegas' });
    await box.pressSequentially('siam', { delay: 30 });
    await page.getByRole('option', { name: /^Siamese\s*Breed$/ }).click();
    await waitForCount(page, 'Cats', 2);
    expect(page.url()).toContain('breed=Siamese');
    expect(await box.inputValue()).toBe('');
    await context.close();
  });

  it('puts the map beside the results on a desktop and above them on a phone', async () => {
    for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
      const { context, page } = await newPage(suite.browser, { viewport });
      await gotoRoute(page, suite.server, '/search');
      await resultsHeading(page).waitFor();
      await waitForCount(page, 'Cats', CATS.length);
      const map = (await page.locator('.search-page__map').boundingBox())!;
      const results = (await page.getByRole('tabpanel').boundingBox())!;
      if (viewport === 'desktop') {
        expect(results.x, 'results right of the map').toBeGreaterThanOrEqual(map.x + map.width);
        expect(Math.abs(results.y - map.y)).toBeLessThan(5);
      } else {
        expect(results.y, 'results below the map').toBeGreaterThanOrEqual(map.y + map.height);
        expect(results.width).toBeGreaterThan(VIEWPORTS.phone.width - 60);
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.getByRole('button', { name: /^Filters/ }).click();
      await page.getByLabel('Breed', { exact: true }).selectOption('Tabby');
      await waitForCount(page, 'Cats', 2);
      expect(await page.locator('.results__list > li').count()).toBe(2);
      await context.close();
    }
  });
});
