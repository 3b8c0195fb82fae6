// The street map in real Chromium (WebGL by SwiftShader): MapLibre with a tiny local style (a
// background layer only; tests have no internet), the whole city's cats as cluster buttons,
// zooming into a cluster, "Search this area", a cat added (then deleted) through the API changing a
// count live, hover sync, keyboard, the fallback, and placing a shop on the map in the forms.
import { createServer, type Server } from 'node:http';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
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
import { browserSuite, callApi, freePort, gotoRoute, newPage, screenshot } from './harness.ts';

const STYLE = {
  version: 8,
  name: 'test background',
  sources: {},
  layers: [{ id: 'land', type: 'background', paint: { 'background-color': '#efe9e1' } }],
};

const stylePort = await freePort();
const styleServer: Server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
  response.end(JSON.stringify(STYLE));
});
await new Promise<void>((resolve) => styleServer.listen(stylePort, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => styleServer.close(() => resolve())));

const suite = browserSuite({
  MAP_STYLE_URL: `http://127.0.0.1:${stylePort}/style.json`,
  WRITE_RATE_LIMIT: '0',
});
const SHOPS = spreadShops(24, 37, 11);
const CAT_COUNT = SHOPS.length * 2 + 1;
const city = cityOwnedBy(suite, 'mapper', SHOPS);

const clusterButtons = (page: Page) =>
  page.getByRole('button', { name: /^\d+ cats? near here$|^Cat \d+[ab]$|^Solo$/ });

/**
 * The colour the street map's canvas shows most, as the page shows it (markers and controls lie
 * over parts of it): red, green and blue, from a 7 by 7 grid of points.
 */
async function canvasColour(page: Page): Promise<number[]> {
  const png = await page.locator('.street-map canvas').screenshot();
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const seen = new Map<string, number>();
  for (let row = 1; row <= 7; row++)
    for (let column = 1; column <= 7; column++) {
      const x = Math.floor((column * info.width) / 8);
      const y = Math.floor((row * info.height) / 8);
      const at = (y * info.width + x) * info.channels;
      const key = [...data.subarray(at, at + 3)].join(',');
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  const [top] = [...seen].sort((a, b) => b[1] - a[1]);
  return top![0].split(',').map(Number);
}

/** Content Security Policy complaints in the page's console (MapLibre's worker and tiles need none). */
function cspViolations(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (m) => void (/Content Security Policy/i.test(m.text()) && found.push(m.text())));
  return found;
}

describe('the street map', () => {
  it('opens on midtown, draws the whole city as cluster buttons, zooms into one, searches the area and counts a new cat live', async () => {
    const { context, page } = await newPage(suite.browser);
    const violations = cspViolations(page);
    const mapRequests: string[] = [];
    page.on('request', (r) => r.url().includes('/api/map?') && mapRequests.push(r.url()));
    await gotoRoute(page, suite.server, '/search');
    await page.locator('.street-map canvas').waitFor({ timeout: 20_000 });
    expect(await page.getByRole('region', { name: /^Street map\./ }).count()).toBe(1);
    // The canvas is shown, and what it shows is the style's land (the box behind it is another colour).
    await expect.poll(() => canvasColour(page), { timeout: 15_000 }).toEqual([0xef, 0xe9, 0xe1]);
    // Midtown at the spec's zoom 12 (Google's scale; 11 on the street map's 512-pixel tiles).
    await expect.poll(() => mapRequests.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expectMidtownStart(mapRequests[0]!, 11);

    // The five boroughs as the searched area: every cat is in view.
    await gotoRoute(page, suite.server, `/search?area=${CITY_AREA}`);
    await page.getByRole('heading', { name: `Cats Found (${CAT_COUNT})` }).waitFor({ timeout: 15_000 });
    await waitForInView(page, (n) => n === CAT_COUNT);
    await clusterButtons(page).first().waitFor();
    const whole = await counts(page);
    expect(whole.reduce((a, b) => a + b, 0)).toBe(CAT_COUNT);
    expect(await page.getByText('OpenStreetMap').count()).toBe(0); // the test style credits no one
    expect(await page.locator('.maplibregl-ctrl-attrib').count()).toBe(1);
    await screenshot(page, 'street-map-city', 'desktop');

    // The biggest cluster zooms in: its cats spread into smaller clusters, and fewer are in view.
    const biggest = Math.max(...whole);
    expect(biggest).toBeGreaterThan(2);
    await page
      .getByRole('button', { name: `${biggest} cats near here` })
      .first()
      .click();
    await waitForInView(page, (n) => n < CAT_COUNT);
    await expect
      .poll(async () => Math.max(...(await counts(page))), { timeout: 15_000 })
      .toBeLessThan(biggest);

    // "Search this area" limits the list to the visible box, with a chip to undo it.
    const visible = await inView(page);
    await page.getByRole('button', { name: 'Search this area' }).click();
    await page.getByRole('heading', { name: `Cats Found (${visible})` }).waitFor({ timeout: 15_000 });
    expect(decodeURIComponent(page.url())).toMatch(
      /area=-?\d+(\.\d+)?,-?\d+(\.\d+)?,-?\d+(\.\d+)?,-?\d+(\.\d+)?/,
    );
    const chip = page.getByRole('group', { name: 'Active filters' }).getByText('In the map area');
    await chip.waitFor();
    await screenshot(page, 'street-map-area', 'desktop');

    // A cat added inside the view: its cluster's count goes up on the open page, without asking
    // again, and down when it is deleted.
    await expectLiveCountInArea(page, suite.server, city.owner.token, mapRequests);

    await page.getByRole('button', { name: 'Remove filter In the map area' }).click();
    await page.getByRole('heading', { name: `Cats Found (${CAT_COUNT})` }).waitFor({ timeout: 15_000 });
    expect(page.url()).not.toContain('area=');
    expect(violations).toEqual([]);
    await context.close();
  });

  it("syncs hover between list and map, opens a single cat's card, and pans and zooms by keyboard", async () => {
    const { context, page } = await newPage(suite.browser);
    const d = 0.004;
    const area = [LONE.longitude - d, LONE.latitude - d, LONE.longitude + d, LONE.latitude + d].join(',');
    await gotoRoute(page, suite.server, `/search?area=${area}`);
    await page.getByRole('heading', { name: 'Cats Found (1)' }).waitFor({ timeout: 20_000 });
    const marker = page.getByRole('button', { name: 'Solo', exact: true });
    await marker.waitFor({ timeout: 15_000 });
    const card = page.getByTestId('cat-card').filter({ hasText: 'Solo' });

    await card.hover();
    await expect.poll(() => marker.getAttribute('class')).toContain('cluster--active');
    await page.mouse.move(1, 1);
    await expect.poll(() => marker.getAttribute('class')).not.toContain('cluster--active');
    await marker.hover();
    await expect.poll(() => card.getAttribute('class')).toContain('is-active');

    await marker.click();
    const info = page.getByRole('dialog', { name: 'Cat Solo' });
    await info.waitFor({ timeout: 15_000 });
    await info.getByRole('button', { name: /View Details/ }).waitFor();
    await info.getByText('Lone Deli').or(info.getByText(LONE.address)).first().waitFor();

    // The map itself is focusable: minus zooms out by keyboard, and the moved map offers its area.
    expect(await page.getByRole('button', { name: 'Search this area' }).count()).toBe(0);
    await page.getByRole('region', { name: /^Street map\./ }).focus();
    await page.keyboard.press('Minus');
    await page.keyboard.press('Minus');
    await page.getByRole('button', { name: 'Search this area' }).waitFor({ timeout: 15_000 });
    await page.keyboard.press('ArrowLeft');

    // Zoomed in all the way, a shop's two cats stay one cluster: a click lists them.
    const shop = SHOPS[0]!;
    const e = 0.0005;
    const spot = [shop.longitude - e, shop.latitude - e, shop.longitude + e, shop.latitude + e].join(',');
    await gotoRoute(page, suite.server, `/search?area=${spot}`);
    const pair = page.getByRole('button', { name: '2 cats near here' });
    await pair.waitFor({ timeout: 15_000 });
    const before = page.url();
    await pair.click();
    await expect.poll(() => page.url()).not.toBe(before);
    await page.getByRole('heading', { name: 'Cats Found (2)' }).waitFor({ timeout: 15_000 });
    await context.close();
  });

  it('falls back to the drawn map, saying why, when the style cannot be loaded', async () => {
    const { context, page } = await newPage(suite.browser);
    await page.route('**/style.json', (route) => route.abort());
    await gotoRoute(page, suite.server, '/search');
    await page
      .getByText('Street map tiles could not be loaded: showing a drawn map.')
      .waitFor({ timeout: 20_000 });
    await page.getByRole('application', { name: /^Map of \d+ locations?/ }).waitFor();
    expect(await page.locator('.street-map').count()).toBe(0);
    await context.close();
  });

  it('falls back to the drawn map, saying why, when the browser refuses a WebGL context', async () => {
    const { context, page } = await newPage(suite.browser);
    // The API is there, but no context is made (a blocked GPU): the map's own constructor finds out.
    await page.addInitScript(() => {
      const getContext = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (
        this: HTMLCanvasElement,
        kind: string,
        ...rest: never[]
      ) {
        return kind.startsWith('webgl') ? null : getContext.call(this, kind as '2d', ...rest);
      } as typeof getContext;
    });
    await gotoRoute(page, suite.server, '/search');
    await page
      .getByText('Street map needs WebGL, which this browser does not offer: showing a drawn map.')
      .waitFor({ timeout: 20_000 });
    await page.getByRole('application', { name: /^Map of \d+ locations?/ }).waitFor();
    expect(await page.locator('.street-map').count()).toBe(0);
    await context.close();
  });

  it('places a new shop on the map by a click, then by dragging its pin', async () => {
    const { context, page } = await newPage(suite.browser, { token: city.owner.token });
    await gotoRoute(page, suite.server, '/upload');
    const form = page.getByRole('form', { name: 'Upload Cat' });
    await form.getByLabel('Cat Name').fill('Pinned');
    await form.getByLabel('Bodega Name').fill('Pin Point Deli');
    await form.getByLabel('Address', { exact: true }).fill('5 Pin St, New York, NY');
    await form.getByRole('button', { name: 'Place on map' }).click();
    const map = form.getByRole('region', { name: /^Map to place the shop/ });
    await map.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => form.getByRole('button', { name: "Use the map's centre" }).isEnabled(), { timeout: 15_000 })
      .toBe(true);
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    const position = form
      .locator('.address-field__coords')
      .filter({ hasText: /Position 40\.\d{5}, -73\.\d{5}/ });
    await position.waitFor();
    const first = await position.textContent();
    await screenshot(page, 'location-picker', 'desktop');
    const pin = form.getByRole('button', { name: 'Shop position' });
    const at = (await pin.boundingBox())!;
    await page.mouse.move(at.x + at.width / 2, at.y + at.height - 4);
    await page.mouse.down();
    await page.mouse.move(at.x + at.width / 2 + 60, at.y + at.height - 4 + 40, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => position.textContent()).not.toBe(first);
    const [lat, lng] = /Position (\S+), (\S+?)Remove/
      .exec((await position.textContent())!)!
      .slice(1)
      .map(Number) as [number, number];

    await form.getByRole('button', { name: 'Upload Cat' }).click();
    await page.getByRole('status').filter({ hasText: 'Cat uploaded successfully!' }).waitFor();
    const found = await callApi(suite.server, 'GET', '/api/search/cats?q=Pinned');
    const cat = (found.body.cats as { name: string; latitude: number; longitude: number }[])[0]!;
    expect(cat.name).toBe('Pinned');
    expect(cat.latitude).toBeCloseTo(lat, 4);
    expect(cat.longitude).toBeCloseTo(lng, 4);

    // Its creator moves the shop on the edit form's map; the new position is saved with the edit.
    const bodegaId = (found.body.cats as { bodega_id: number }[])[0]!.bodega_id;
    await gotoRoute(page, suite.server, `/bodega/${bodegaId}/edit`);
    await page.getByText(`Position ${lat.toFixed(5)}, ${lng.toFixed(5)}`).waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Place on map' }).click();
    const editMap = page.getByRole('region', { name: /^Map to place the shop/ });
    await editMap.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => page.getByRole('button', { name: "Use the map's centre" }).isEnabled(), { timeout: 15_000 })
      .toBe(true);
    const frame = (await editMap.boundingBox())!;
    await page.mouse.click(frame.x + 40, frame.y + frame.height - 40);
    await page.getByText(/\(placed on the map\)$/).waitFor();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect
      .poll(async () => {
        const reply = await callApi(suite.server, 'GET', `/api/bodegas/${bodegaId}`);
        return (reply.body.bodega as { longitude: number }).longitude;
      })
      .toBeLessThan(lng - 0.0001);
    await context.close();
  });

  it('fits a phone screen, its count, "Search this area" and zoom buttons apart', async () => {
    const { context, page } = await newPage(suite.browser, { viewport: 'phone' });
    await gotoRoute(page, suite.server, `/search?area=${CITY_AREA}`);
    await clusterButtons(page).first().waitFor({ timeout: 20_000 });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    // (Earlier tests here may have added a shop of their own.)
    await waitForInView(page, (n) => n >= CAT_COUNT);
    // Moved by the keyboard, the map offers its area.
    await page.getByRole('region', { name: /^Street map\./ }).focus();
    await page.keyboard.press('ArrowLeft');
    const searchArea = page.getByRole('button', { name: 'Search this area' });
    await searchArea.waitFor({ timeout: 15_000 });
    await expectApart([
      page.locator('.street-map .cluster-map__status'),
      searchArea,
      page.getByRole('button', { name: 'Zoom in' }),
    ]);
    await screenshot(page, 'street-map-city', 'phone');
    await context.close();
  });
});
