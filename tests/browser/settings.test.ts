// The account settings screen in a real browser: changing the password through the page, then
// signing in with the new one; signing out everywhere, which ends other browsers' sessions too; and
// deleting the account, after which it cannot sign in.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, callApi, gotoRoute, newPage, registerUser, screenshot, toast } from './harness.ts';

const suite = browserSuite();

async function changePasswordThroughForm(page: Page, current: string, next: string, confirm = next) {
  await page.getByLabel('Current password', { exact: true }).fill(current);
  await page.getByLabel('New password', { exact: true }).fill(next);
  await page.getByLabel('Confirm new password', { exact: true }).fill(confirm);
  await page.getByRole('button', { name: 'Change password' }).click();
}

const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

describe('account settings in the browser', () => {
  it('changes the password at phone width, then signs in with the new one', async () => {
    const user = await registerUser(suite.server, 'pwd');
    const { context, page } = await newPage(suite.browser, { viewport: 'phone', token: user.token });
    await gotoRoute(page, suite.server, '/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: `Account settings (${user.username})` })
      .click();
    await page.waitForURL(/#\/settings$/);
    await page.getByRole('heading', { name: 'Account settings', level: 1 }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'settings', 'phone');

    await changePasswordThroughForm(page, user.password, 'kittens-2026', 'kittens-2027');
    await toast(page, 'Passwords do not match').waitFor();
    await changePasswordThroughForm(page, 'not-my-password', 'kittens-2026');
    await toast(page, 'Current password is incorrect').waitFor();
    expect(await storedToken(page)).toBe(user.token);

    await changePasswordThroughForm(page, user.password, 'kittens-2026');
    await toast(page, 'Password changed. Other devices have been signed out.').waitFor();
    const fresh = await storedToken(page);
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(user.token);
    expect((await callApi(suite.server, 'GET', '/api/auth/profile', undefined, user.token)).status).toBe(401);
    expect((await callApi(suite.server, 'GET', '/api/auth/profile', undefined, fresh!)).status).toBe(200);
    // The page carries on signed in with the fresh token: a signed-in list loads.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await nav.getByRole('link', { name: 'Saved', exact: true }).click();
    await page.getByRole('heading', { name: 'Your Saved Items' }).waitFor();
    await page.getByText('No saved cats yet').waitFor();
    expect(await storedToken(page)).toBe(fresh);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await nav.getByRole('button', { name: 'Logout' }).click();
    // Logging out goes home, and arriving there closes the menu: open it once home is shown.
    await page.getByRole('heading', { name: 'Find Bodega Cats in NYC', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await nav.getByRole('link', { name: 'Login' }).click();
    await page.getByLabel('Username or Email').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await toast(page, 'Invalid username or password').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('kittens-2026');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await toast(page, 'Login successful!').waitFor();
    await page.waitForURL(/#\/$/);
    await context.close();
  });

  it('signs out everywhere after a confirmation, ending another browser’s session too', async () => {
    const user = await registerUser(suite.server, 'away');
    const other = await callApi(suite.server, 'POST', '/api/auth/login', {
      username: user.username,
      password: user.password,
    });
    const elsewhere = await newPage(suite.browser, { token: other.body.access_token });
    await gotoRoute(elsewhere.page, suite.server, '/saved');
    await elsewhere.page.getByRole('heading', { name: 'Your Saved Items' }).waitFor();

    const { context, page } = await newPage(suite.browser, { token: user.token });
    await gotoRoute(page, suite.server, '/settings');
    const dialogs: string[] = [];
    page.once('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect.poll(() => dialogs.length).toBe(1);
    expect(await storedToken(page)).toBe(user.token);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await toast(page, 'Signed out everywhere').waitFor();
    await page.waitForURL(/#\/login$/);
    expect(await storedToken(page)).toBeNull();

    // The other browser's next visit finds its token refused and lands on sign-in.
    await elsewhere.page.reload();
    await elsewhere.page.waitForURL(/#\/login$/);
    expect(await storedToken(elsewhere.page)).toBeNull();
    await elsewhere.context.close();
    await context.close();
  });

  it('deletes the account at phone width after the password and a confirmation, then it cannot sign in', async () => {
    const user = await registerUser(suite.server, 'bye');
    const { context, page } = await newPage(suite.browser, { viewport: 'phone', token: user.token });
    await gotoRoute(page, suite.server, '/settings');
    const section = page.getByRole('region', { name: 'Delete account' });
    await section.getByText('Cats and bodegas you added stay').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // Keyboard only: type the wrong password, submit with Enter, confirm with Enter.
    await section.getByLabel('Your password', { exact: true }).fill('not-my-password');
    await page.keyboard.press('Enter');
    const confirm = section.getByRole('button', { name: 'Yes, delete my account' });
    await confirm.waitFor();
    expect(await confirm.evaluate((button) => button === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await section.getByRole('alert').filter({ hasText: 'Password is incorrect' }).waitFor();
    expect(await storedToken(page)).toBe(user.token);
    expect((await callApi(suite.server, 'GET', '/api/auth/profile', undefined, user.token)).status).toBe(200);

    // Cancel keeps the account.
    await section.getByLabel('Your password', { exact: true }).fill(user.password);
    await section.getByRole('button', { name: 'Delete account' }).click();
    await section.getByRole('button', { name: 'Cancel' }).click();
    await section.getByLabel('Your password', { exact: true }).waitFor();
    expect((await callApi(suite.server, 'GET', '/api/auth/profile', undefined, user.token)).status).toBe(200);

    await section.getByLabel('Your password', { exact: true }).fill(user.password);
    await section.getByRole('button', { name: 'Delete account' }).click();
    await screenshot(page, 'settings-delete-confirm', 'phone');
    await section.getByRole('button', { name: 'Yes, delete my account' }).click();
    await toast(page, 'Your account has been deleted.').waitFor();
    await page.waitForURL(/#\/$/);
    expect(await storedToken(page)).toBeNull();
    expect((await callApi(suite.server, 'GET', '/api/auth/profile', undefined, user.token)).status).toBe(401);

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).click();
    await page.getByLabel('Username or Email').fill(user.username);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await toast(page, 'Invalid username or password').waitFor();
    expect(await storedToken(page)).toBeNull();
    await context.close();
  });
});
