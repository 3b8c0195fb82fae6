// Signing up, out and in through the real screens, and the guard on signed-in routes.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  browserSuite,
  gotoRoute,
  newPage,
  registerUser,
  toast,
  type ViewportName,
  VIEWPORTS,
} from './harness.ts';

const suite = browserSuite();

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
    const { context, page } = await newPage(suite.browser);
    const username = `reg${Date.now().toString(36)}`;
    await gotoRoute(page, suite.server, '/register');
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
    const user = await registerUser(suite.server, 'reload');
    const { context, page } = await newPage(suite.browser, { token: user.token });
    await gotoRoute(page, suite.server, '/');
    await page.getByRole('navigation', { name: 'Main' }).getByText(user.username).waitFor();
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).getByText(user.username).waitFor();
    await context.close();
  });

  it('sends a signed-out visitor from a guarded page to /login, replacing history', async () => {
    const { context, page } = await newPage(suite.browser);
    await gotoRoute(page, suite.server, '/');
    await page.getByRole('heading', { name: 'Find Bodega Cats in NYC' }).waitFor();
    for (const route of ['/saved', '/recently-viewed', '/upload', '/settings']) {
      await gotoRoute(page, suite.server, route);
      await page.waitForURL(/#\/login$/);
      await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    }
    await context.close();
  });

  it('signs out cleanly when the stored token is no longer accepted', async () => {
    const { context, page } = await newPage(suite.browser, { token: 'not-a-real-token' });
    await gotoRoute(page, suite.server, '/saved');
    await page.waitForURL(/#\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await context.close();
  });

  it('fits home, sign-in and sign-up to desktop and phone widths without sideways scrolling', async () => {
    const screens = [
      { route: '/', ready: (p: Page) => p.getByRole('heading', { name: 'Find Bodega Cats in NYC' }) },
      { route: '/login', ready: (p: Page) => p.getByRole('button', { name: 'Sign in' }) },
      { route: '/register', ready: (p: Page) => p.getByRole('button', { name: 'Create account' }) },
    ];
    for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
      const { context, page } = await newPage(suite.browser, { viewport });
      for (const { route, ready } of screens) {
        await gotoRoute(page, suite.server, route);
        await ready(page).waitFor();
        expect(await ready(page).isVisible()).toBe(true);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${route} at ${viewport} width`).toBeLessThanOrEqual(0);
      }
      await context.close();
    }
  });

  it('shows a signed-in user every link on a desktop, and behind the menu button on a phone', async () => {
    const user = await registerUser(suite.server, 'navs');
    for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
      const { context, page } = await newPage(suite.browser, { viewport, token: user.token });
      await gotoRoute(page, suite.server, '/');
      await page.getByRole('heading', { name: 'Find Bodega Cats in NYC' }).waitFor();
      const nav = page.getByRole('navigation', { name: 'Main' });
      const menuButton = page.getByRole('button', { name: 'Open menu' });
      if (viewport === 'phone') {
        expect(await nav.getByRole('link', { name: 'Upload' }).isVisible()).toBe(false);
        await menuButton.click();
        await nav.getByRole('link', { name: 'Recently Viewed', exact: true }).waitFor();
      } else {
        expect(await menuButton.isVisible()).toBe(false);
        await nav.getByRole('link', { name: 'Recent', exact: true }).waitFor();
      }
      for (const name of ['Search', 'Saved', 'Upload']) {
        expect(await nav.getByRole('link', { name, exact: true }).isVisible(), `${name} at ${viewport}`).toBe(
          true,
        );
      }
      expect(await nav.getByText(user.username).isVisible()).toBe(true);
      expect(await nav.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
      await context.close();
    }
  });
});
