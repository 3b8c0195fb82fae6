// The search map with a Google Maps key, in real Chromium. Google's script cannot load here (no
// network), so google-maps-stand-in.js is served in its place: a bare Web Mercator map with the few
// calls the page makes. What is tested is the page's side: the whole city's cats as the same named
// cluster buttons as the street map, zooming into one, "Search this area", a live count, hover sync
// both ways, a single cat's card by mouse and keyboard, and a drag offering the area again.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  cityOwnedBy,
  CITY_AREA,
  LONE,
  spreadShops,
  counts,
  expectLiveCountInArea,
  expectMidtownStart,
  inView,
  waitForInView,
  expectApart,
} from './cluster-map.ts';
import { browserSuite, gotoRoute, newPage, screenshot } from './harness.ts';

const STAND_IN = readFileSync(new URL('./google-maps-stand-in.js', import.meta.url), 'utf8');

const suite = browserSuite({ GOOGLE_MAPS_API_KEY: 'test-key-not-real', WRITE_RATE_LIMIT: '0' });
const SHOPS = spreadShops(12, 5, 7);
const CAT_COUNT = SHOPS.length * 2 + 1;
const city = cityOwnedBy(suite, 'gmapper', SHOPS);

/** A page whose Google script is the stand-in; the /api/map requests it makes are collected. */
async function openMap(route: string, viewport: 'desktop' | 'phone' = 'desktop') {
  const { context, page } = await newPage(suite.browser, { viewport });
  const mapRequests: URL[] = [];
  page.on('request', (r) => void (r.url().includes('/api/map?') && mapRequests.push(new URL(r.url()))));
  await page.route('https://maps.googleapis.com/maps/api/js*', (r) =>
    r.fulfill({ status: 200, contentType: 'text/javascript', body: STAND_IN }),
  );
  await gotoRoute(page, suite.server, route);
  await page.locator('.gmap').waitFor({ timeout: 20_000 });
  return { context, page, mapRequests };
}

describe('the Google map', () => {
  it('opens on midtown, shows the city as cluster buttons, zooms into one, searches the area and counts a new cat live', async () => {
    const { context, page, mapRequests } = await openMap('/search');
    // Midtown at zoom 12; clusters are asked for one level lower, on the street map's scale.
    await expect.poll(() => mapRequests.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expectMidtownStart(mapRequests[0]!, 11);

    await gotoRoute(page, suite.server, `/search?area=${CITY_AREA}`);
    await page.getByRole('heading', { name: `Cats Found (${CAT_COUNT})` }).waitFor({ timeout: 15_000 });
    await waitForInView(page, (n) => n === CAT_COUNT);
    const whole = await counts(page);
    expect(whole.reduce((a, b) => a + b, 0)).toBe(CAT_COUNT);
    expect(whole.length).toBeGreaterThan(1);
    expect(await page.locator('.gmap .cluster').evaluateAll((b) => b.map((e) => e.tagName))).toEqual(
      whole.map(() => 'BUTTON'),
    );
    // Clusters are asked for one level below Google's zoom, the street map's scale for this view.
    const zoom = Number(mapRequests.at(-1)!.searchParams.get('zoom'));
    expect(zoom).toBeGreaterThanOrEqual(8);
    expect(zoom).toBeLessThanOrEqual(11);
    expect(await page.getByRole('textbox', { name: 'Search a place on the map' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Search this area' }).count()).toBe(0);
    await screenshot(page, 'google-map-city', 'desktop');

    // The biggest cluster zooms in: its cats spread out, fewer are in view, and the area is offered.
    const biggest = Math.max(...whole);
    expect(biggest).toBeGreaterThan(2);
    await page
      .getByRole('button', { name: `${biggest} cats near here` })
      .first()
      .click();
    await waitForInView(page, (n) => n < CAT_COUNT);
    expect(Number(mapRequests.at(-1)!.searchParams.get('zoom'))).toBeGreaterThanOrEqual(zoom + 2);
    await expect.poll(async () => Math.max(...(await counts(page)))).toBeLessThan(biggest);

    const visible = await inView(page);
    await page.getByRole('button', { name: 'Search this area' }).click();
    await page.getByRole('heading', { name: `Cats Found (${visible})` }).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Search this area' }).count()).toBe(0);

    // A cat added inside the view joins the count on the open page without asking again, and leaves it.
    await expectLiveCountInArea(page, suite.server, city.owner.token, mapRequests);
    await context.close();
  });

  it("syncs hover with the list, opens a single cat's card by mouse and keyboard, and offers a dragged area", async () => {
    const d = 0.004;
    const area = [LONE.longitude - d, LONE.latitude - d, LONE.longitude + d, LONE.latitude + d].join(',');
    const { context, page } = await openMap(`/search?area=${area}`);
    await page.getByRole('heading', { name: 'Cats Found (1)' }).waitFor({ timeout: 20_000 });
    const marker = page.getByRole('button', { name: 'Solo', exact: true });
    await marker.waitFor({ timeout: 15_000 });
    const card = page.getByTestId('cat-card').filter({ hasText: 'Solo' });
    await expect.poll(() => page.locator('.gmap .cluster-map__status').textContent()).toBe('1 cat in view');

    await card.hover();
    await expect.poll(() => marker.getAttribute('class')).toContain('cluster--active');
    await page.mouse.move(1, 1);
    await expect.poll(() => marker.getAttribute('class')).not.toContain('cluster--active');
    await marker.hover();
    await expect.poll(() => card.getAttribute('class')).toContain('is-active');

    // The click opens the card and is not taken by the map as well (which would close it).
    await marker.click();
    const info = page.getByRole('dialog', { name: 'Cat Solo' });
    await info.getByRole('button', { name: /View Details/ }).waitFor({ timeout: 15_000 });
    await page.waitForTimeout(300);
    expect(await info.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await info.waitFor({ state: 'detached' });
    await marker.focus();
    await page.keyboard.press('Enter');
    await info.waitFor();
    expect(await page.getByRole('button', { name: 'Search this area' }).count()).toBe(0);

    // Dragging the map (not from a marker) offers its new area.
    const box = (await page.locator('.gmap').boundingBox())!;
    await page.mouse.move(box.x + 40, box.y + box.height - 60);
    await page.mouse.down();
    await page.mouse.move(box.x + 140, box.y + box.height - 120, { steps: 6 });
    await page.mouse.up();
    await page.getByRole('button', { name: 'Search this area' }).waitFor({ timeout: 15_000 });
    await context.close();
  });

  it('fits a phone screen, its count and "Search this area" clear of the place search box', async () => {
    const { context, page } = await openMap(`/search?area=${CITY_AREA}`, 'phone');
    await waitForInView(page, (n) => n === CAT_COUNT);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.locator('.gmap').scrollIntoViewIfNeeded();
    const map = (await page.locator('.gmap').boundingBox())!;
    await page.mouse.move(map.x + map.width / 2, map.y + map.height - 80);
    await page.mouse.down();
    await page.mouse.move(map.x + map.width / 2 + 30, map.y + map.height - 40, { steps: 4 });
    await page.mouse.up();
    const searchArea = page.getByRole('button', { name: 'Search this area' });
    await searchArea.waitFor({ timeout: 15_000 });
    await expectApart([
      page.getByRole('textbox', { name: 'Search a place on the map' }),
      page.locator('.gmap .cluster-map__status'),
      searchArea,
    ]);
    await screenshot(page, 'google-map-city', 'phone');
    await context.close();
  });
});
