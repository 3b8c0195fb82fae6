// The search map with a Google Maps key configured: the script is served by the test (no network
// here) to act out Google's answers, and each failure must leave a red box plus the built-in map.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, gotoRoute, newPage } from './harness.ts';

const suite = browserSuite({ GOOGLE_MAPS_API_KEY: 'test-key-not-real' });

/** A maps script that reports an authentication problem the way Google's does. */
function authFailureScript(errorName: string): string {
  return `console.error('Google Maps JavaScript API error: ${errorName}\\nhttps://developers.google.com/maps/documentation/javascript/error-messages#${errorName}');
window.gm_authFailure && window.gm_authFailure();`;
}

async function openWithMapsScript(page: Page, body: string | null): Promise<string[]> {
  const requested: string[] = [];
  await page.route('https://maps.googleapis.com/**', (route) => {
    requested.push(route.request().url());
    return body === null
      ? route.abort('connectionrefused')
      : route.fulfill({ status: 200, contentType: 'text/javascript', body });
  });
  await gotoRoute(page, suite.server, '/search');
  return requested;
}

describe('map errors', () => {
  it.each([
    ['InvalidKeyMapError', 'the Google Maps API key is invalid'],
    ['RefererNotAllowedMapError', 'Map request denied'],
    ['OverQuotaMapError', 'usage quota for this site has been exceeded'],
  ])('tells %s apart and falls back to the built-in map', async (errorName, message) => {
    const { context, page } = await newPage(suite.browser);
    const requested = await openWithMapsScript(page, authFailureScript(errorName));
    const alert = page.locator('.map-error[role="alert"]');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain(message);
    await page.locator('svg.fmap__canvas').waitFor();
    const url = new URL(requested[0]!);
    expect(url.searchParams.get('key')).toBe('test-key-not-real');
    expect(url.searchParams.get('v')).toBe('weekly');
    expect(url.searchParams.get('libraries')).toBe('places');
    await context.close();
  });

  it('retries a script that will not load 3 times, then reports it', async () => {
    const { context, page } = await newPage(suite.browser);
    const requested = await openWithMapsScript(page, null);
    const alert = page.locator('.map-error[role="alert"]');
    await alert.waitFor({ timeout: 15_000 });
    expect(await alert.textContent()).toContain('Google Maps could not be loaded');
    expect(requested).toHaveLength(4);
    await page.locator('svg.fmap__canvas').waitFor();
    await context.close();
  });
});
