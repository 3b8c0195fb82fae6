// Share links in a real browser: opening /c/{id} lands on the cat's page in the app (the page's
// own script follows its link, within the CSP), and the Share button of a page without a share
// sheet copies the link, from the keyboard, at a phone's width.
import { beforeAll, describe, expect, it } from 'vitest';
import { browserSuite, callApi, newPage, registerUser, screenshot, toast } from './harness.ts';

const suite = browserSuite();
let catId = 0;
let bodegaId = 0;

beforeAll(async () => {
  const owner = await registerUser(suite.server, 'sharer');
  const res = await callApi(
    suite.server,
    'POST',
    '/api/cats',
    {
      name: 'Biscuit',
      bodega_name: 'Share Deli',
      address: '12 Share St, New York, NY',
      latitude: 40.72,
      longitude: -73.99,
    },
    owner.token,
  );
  expect(res.status).toBe(201);
  catId = res.body.cat.id;
  bodegaId = res.body.bodega.id;
});

describe('a share link', () => {
  it('takes a person from /c/{id} to the cat’s page, with no CSP violation', async () => {
    const { context, page } = await newPage(suite.browser, { viewport: 'phone' });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    try {
      await page.goto(`${suite.server.baseUrl}/c/${catId}`);
      await page.waitForURL(`${suite.server.baseUrl}/#/cat/${catId}`, { timeout: 15_000 });
      await page.getByRole('heading', { level: 1, name: 'Biscuit' }).waitFor({ timeout: 15_000 });
      expect(problems.filter((p) => /Content Security Policy/i.test(p))).toEqual([]);

      await page.goto(`${suite.server.baseUrl}/b/${bodegaId}`);
      await page.waitForURL(`${suite.server.baseUrl}/#/bodega/${bodegaId}`, { timeout: 15_000 });
      await page.getByRole('heading', { level: 1, name: /Share Deli/ }).waitFor({ timeout: 15_000 });
    } finally {
      await context.close();
    }
  });

  it('is copied by the Share button where there is no share sheet, from the keyboard at 375 px', async () => {
    const { context, page } = await newPage(suite.browser, { viewport: 'phone' });
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.server.baseUrl });
      // No share sheet, whatever this Chromium offers, so the button copies.
      await context.addInitScript(() => {
        delete (Navigator.prototype as { share?: unknown }).share;
      });
      await page.goto(`${suite.server.baseUrl}/#/cat/${catId}`);
      const button = page.getByRole('button', { name: 'Share Cat' });
      await button.waitFor({ timeout: 15_000 });
      const box = await button.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(375);
      expect(box!.width).toBeGreaterThanOrEqual(44);
      await button.focus();
      await page.keyboard.press('Enter');
      await toast(page, 'Link copied').waitFor({ timeout: 10_000 });
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(`${suite.server.baseUrl}/c/${catId}`);
      await screenshot(page, 'share-copied', 'phone');
      // What was copied is the share page, which leads back here.
      const preview = await fetch(copied);
      expect(preview.status).toBe(200);
      expect(await preview.text()).toContain(`<meta property="og:url" content="${copied}">`);
    } finally {
      await context.close();
    }
  });
});
