// Signing up, out and in through the real screens, and the guard on signed-in routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  gotoRoute,
  launchBrowser,
  newPage,
  registerUser,
  screenshot,
  startServer,
  VIEWPORTS,
  type RunningServer,
  type ViewportName,
} from './harness.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function toast(page: Page, text: string) {
  return page.getByRole('status').filter({ hasText: text });
}

async function fillRegistration(
  page: Page,
  fields: { username: string; email: string; password: string; confirm: string },
) {
  await page.getByLabel('Username').fill(fields.username);
  await page.getByLabel('Email address').fill(fields.email);
  await page.getByLabel('Password', { exact: true }).fill(fields.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(fields.confirm);
}

describe('accounts in the browser', () => {
  it('registers, showing both validation toasts first, then logs out and back in', async () => {
    const { context, page } = await newPage(browser);
    const username = `reg${Date.now().toString(36)}`;
    await gotoRoute(page, server, '/register');
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();

    await fillRegistration(page, {
      username,
      email: `${username}@example.com`,
      password: 'abcdef',
      confirm: 'abcdeg',
    });
    await page.getByRole('button', { name: 'Create account' }).click();
    await toast(page, 'Passwords do not match').waitFor();

    await fillRegistration(page, {
      username,
      email: `${username}@example.com`,
      password: 'abc',
      confirm: 'abc',
    });
    await page.getByRole('button', { name: 'Create account' }).click();
    await toast(page, 'Password must be at least 6 characters long').waitFor();

    await fillRegistration(page, {
      username,
      email: `${username}@example.com`,
      password: 'whiskers1',
      confirm: 'whiskers1',
    });
    await page.getByRole('button', { name: 'Create account' }).click();
    await toast(page, 'Registration successful! Welcome to Bodega Cats').waitFor();
    await page.waitForURL(/#\/$/);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByText(username).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

    await nav.getByRole('button', { name: 'Logout' }).click();
    await nav.getByRole('link', { name: 'Login' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

    await nav.getByRole('link', { name: 'Login' }).click();
    await page.getByLabel('Username or Email').fill(`${username}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await toast(page, 'Invalid username or password').waitFor();
    expect(page.url()).toContain('#/login');

    await page.getByLabel('Password', { exact: true }).fill('whiskers1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await toast(page, 'Login successful!').waitFor();
    await page.waitForURL(/#\/$/);
    await nav.getByText(username).waitFor();
    await context.close();
  });

  it('keeps the session across a reload', async () => {
    const user = await registerUser(server, 'reload');
    const { context, page } = await newPage(browser, { token: user.token });
    await gotoRoute(page, server, '/');
    await page.getByRole('navigation', { name: 'Main' }).getByText(user.username).waitFor();
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).getByText(user.username).waitFor();
    await context.close();
  });

  it('sends a signed-out visitor from a guarded page to /login, replacing history', async () => {
    const { context, page } = await newPage(browser);
    await gotoRoute(page, server, '/');
    await page.getByRole('heading', { name: 'Find Bodega Cats in NYC' }).waitFor();
    for (const route of ['/saved', '/recently-viewed', '/upload']) {
      await gotoRoute(page, server, route);
      await page.waitForURL(/#\/login$/);
      await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    }
    await context.close();
  });

  it('signs out cleanly when the stored token is no longer accepted', async () => {
    const { context, page } = await newPage(browser, { token: 'not-a-real-token' });
    await gotoRoute(page, server, '/saved');
    await page.waitForURL(/#\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await context.close();
  });

  it('screenshots home, sign-in and sign-up at desktop and phone sizes', async () => {
    const user = await registerUser(server, 'shots');
    for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
      const { context, page } = await newPage(browser, { viewport });
      await gotoRoute(page, server, '/');
      await page.getByRole('heading', { name: 'Find Bodega Cats in NYC' }).waitFor();
      await screenshot(page, 'home', viewport);
      await gotoRoute(page, server, '/login');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await screenshot(page, 'login', viewport);
      await gotoRoute(page, server, '/register');
      await page.getByRole('button', { name: 'Create account' }).waitFor();
      await screenshot(page, 'register', viewport);
      await context.close();

      const signedIn = await newPage(browser, { viewport, token: user.token });
      await gotoRoute(signedIn.page, server, '/');
      await signedIn.page.getByRole('heading', { name: 'Find Bodega Cats in NYC' }).waitFor();
      const nav = signedIn.page.getByRole('navigation', { name: 'Main' });
      if (viewport === 'phone') {
        await signedIn.page.getByRole('button', { name: 'Open menu' }).click();
        await nav.getByRole('link', { name: 'Recently Viewed', exact: true }).waitFor();
      } else {
        await nav.getByRole('link', { name: 'Recent', exact: true }).waitFor();
      }
      await screenshot(signedIn.page, 'home-signed-in', viewport);
      await signedIn.context.close();
    }
  });
});
