// What the browser tests of the two cluster maps (the street map and the Google map) share: the
// city's cats put on the map through the API by its owner, the counts read back from the cluster buttons and the status
// line, and a cat added and deleted inside the searched area changing the count live.
import { beforeAll, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { callApi, registerUser, type BrowserSuite, type RunningServer, type TestUser } from './harness.ts';

/** The five boroughs as a searched area: the map opens on the whole city. */
export const CITY_AREA = '-74.26,40.49,-73.7,40.92';

/** The first /api/map request of a page opened without an area: midtown at the default zoom. */
export function expectMidtownStart(mapRequest: string | URL, zoom: number): void {
  const params = new URL(mapRequest).searchParams;
  const box = ['west', 'south', 'east', 'north'].map((k) => Number(params.get(k)));
  const [west, south, east, north] = box as [number, number, number, number];
  expect(Number(params.get('zoom'))).toBe(zoom);
  expect((west + east) / 2).toBeCloseTo(-73.984, 2);
  expect((south + north) / 2).toBeCloseTo(40.7549, 2);
  // Zoom 12 on Google's scale: some 10 km across on a desktop map, not the whole city.
  expect(east - west).toBeLessThan(0.3);
}

export type Shop = { bodega_name: string; address: string; latitude: number; longitude: number };
type Cat = { id: number; version: number };

/**
 * `count` shops spread over the five boroughs on a fixed pseudo-random pattern (row and column
 * steps coprime with `count`), 0.3 degrees of latitude by 0.4 of longitude from Staten Island.
 */
export function spreadShops(count: number, rowStep: number, columnStep: number): Shop[] {
  return Array.from({ length: count }, (_, i) => ({
    bodega_name: `Shop ${i}`,
    address: `${i + 1} Broadway, New York, NY`,
    latitude: 40.55 + ((i * rowStep) % count) * (0.3 / count),
    longitude: -74.15 + ((i * columnStep) % count) * (0.396 / count),
  }));
}

/** A cat alone at its shop in Queens, away from the others: a single-item cluster up close. */
export const LONE: Shop = {
  bodega_name: 'Lone Deli',
  address: '9 Far Rd, Queens, NY',
  latitude: 40.88,
  longitude: -73.76,
};

/** Two cats at each shop ("Cat 0a", "Cat 0b", ...) and "Solo" at LONE: shops x 2 + 1 cats. */
export async function addCityCats(server: RunningServer, token: string, shops: Shop[]): Promise<number> {
  for (const [i, shop] of shops.entries()) {
    await addCat(server, token, `Cat ${i}a`, shop);
    await addCat(server, token, `Cat ${i}b`, shop);
  }
  await addCat(server, token, 'Solo', LONE);
  return shops.length * 2 + 1;
}

/** Before the file's tests, `name` signs up and adds the city's cats (addCityCats) as its owner. */
export function cityOwnedBy(suite: BrowserSuite, name: string, shops: Shop[]): { readonly owner: TestUser } {
  let owner: TestUser | undefined;
  beforeAll(async () => {
    owner = await registerUser(suite.server, name);
    await addCityCats(suite.server, owner.token, shops);
  });
  return {
    get owner() {
      if (!owner) throw new Error("the city's owner has not signed up yet");
      return owner;
    },
  };
}

export async function addCat(server: RunningServer, token: string, name: string, shop: Shop): Promise<Cat> {
  const reply = await callApi(server, 'POST', '/api/cats', { name, ...shop }, token);
  if (reply.status !== 201) throw new Error(`add cat failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.cat as Cat;
}

export async function deleteCat(server: RunningServer, token: string, cat: Cat): Promise<void> {
  const response = await fetch(`${server.baseUrl}/api/cats/${cat.id}`, {
    method: 'DELETE',
    headers: { Authorization: `Bearer ${token}`, 'If-Match': String(cat.version) },
  });
  if (response.status !== 200) throw new Error(`delete cat failed: ${response.status}`);
}

/** Every cluster's count, read from the buttons' names (a named single cat counts one). */
export async function counts(page: Page): Promise<number[]> {
  const names = await page
    .locator('button.cluster')
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? ''));
  return names.map((name) => Number(/^(\d+) cats? near here$/.exec(name)?.[1] ?? 1));
}

const sum = (numbers: number[]) => numbers.reduce((a, b) => a + b, 0);

export async function inView(page: Page): Promise<number> {
  const text = await page.locator('.cluster-map__status').textContent({ timeout: 15_000 });
  // "57,841 cats in view": grouped by thousands.
  return Number(/^([\d,]+) cats? in view$/.exec(text ?? '')?.[1]?.replaceAll(',', '') ?? NaN);
}

/** That no two of the elements' boxes on the page overlap (what a phone's narrow map must keep). */
export async function expectApart(elements: Locator[]): Promise<void> {
  const boxes = await Promise.all(elements.map(async (l) => (await l.boundingBox())!));
  const overlaps: string[] = [];
  boxes.forEach((a, i) =>
    boxes.slice(i + 1).forEach((b, k) => {
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
        overlaps.push(`${i} and ${i + 1 + k}`);
    }),
  );
  expect(overlaps).toEqual([]);
}

export async function waitForInView(page: Page, check: (n: number) => boolean): Promise<void> {
  await expect.poll(() => inView(page), { timeout: 15_000 }).toSatisfy(check);
}

/**
 * With an area searched: a cat added at its centre joins the open map's count, and leaves it when
 * deleted, without the map asking the server again (`mapRequests` collects its /api/map requests).
 */
export async function expectLiveCountInArea(
  page: Page,
  server: RunningServer,
  token: string,
  mapRequests: unknown[],
): Promise<void> {
  const [west, south, east, north] = /area=([^&]+)/
    .exec(decodeURIComponent(page.url()))![1]!
    .split(',')
    .map(Number) as [number, number, number, number];
  await page.waitForTimeout(500);
  const asked = mapRequests.length;
  const before = await inView(page);
  const newcomer = await addCat(server, token, 'Newcomer', {
    bodega_name: 'Brand New Deli',
    address: '1 New St, New York, NY',
    latitude: (south + north) / 2,
    longitude: (west + east) / 2,
  });
  await waitForInView(page, (n) => n === before + 1);
  expect(sum(await counts(page))).toBe(before + 1);
  expect(mapRequests.length).toBe(asked);
  await deleteCat(server, token, newcomer);
  await waitForInView(page, (n) => n === before);
  expect(sum(await counts(page))).toBe(before);
  expect(mapRequests.length).toBe(asked);
}
