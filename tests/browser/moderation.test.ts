// Reporting and moderating in a real browser: a member reports a review through the dialog with the
// keyboard (a second report is refused), a moderator (made one with `npm run role`, which runs in
// the app) finds it in the queue from the nav, hides it, the public no longer sees it, and a
// restore brings it back. A moderator reading the queue is told of reports filed meanwhile.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  ROOT,
  browserSuite,
  callApi,
  gotoRoute,
  newPage,
  registerUser,
  screenshot,
  toast,
  type TestUser,
} from './harness.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'bodega-moderation-'));
const dataDir = path.join(root, 'data');
mkdirSync(dataDir);
const suite = browserSuite({ DATA_DIR: dataDir });

const REVIEW_TEXT = 'Buy cheap watches at example dot com';
let creator: TestUser;
let reviewer: TestUser;
let reporter: TestUser;
let moderator: TestUser;
let catId = 0;
let reviewId = 0;

/** `npm run role` as an operator runs it: it finds the running app through its data directory. */
function setRole(username: string, role: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/role.ts', username, role],
      {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', NODE_ENV: 'test' },
        timeout: 60_000,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? -1) : 0, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** The review's id. */
async function reviewCat(author: TestUser, rating: number, comment: string): Promise<number> {
  const review = await callApi(
    suite.server,
    'POST',
    '/api/reviews',
    { cat_id: catId, rating, comment },
    author.token,
  );
  expect(review.status).toBe(201);
  return review.body.review.id;
}

beforeAll(async () => {
  const people = await Promise.all(
    ['maker', 'spammer', 'watcher', 'mod'].map((name) => registerUser(suite.server, name)),
  );
  [creator, reviewer, reporter, moderator] = people as [TestUser, TestUser, TestUser, TestUser];
  const cat = await callApi(
    suite.server,
    'POST',
    '/api/cats',
    { name: 'Pepper', bodega_name: 'Corner Stop Deli', address: '12 Mott St, New York, NY' },
    creator.token,
  );
  expect(cat.status).toBe(201);
  catId = cat.body.cat.id;
  reviewId = await reviewCat(reviewer, 1, REVIEW_TEXT);
  const granted = await setRole(moderator.username, 'moderator');
  expect(granted.output).toContain(`${moderator.username} is now a moderator.`);
  expect(granted.code).toBe(0);
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const reportButton = (page: Page) =>
  page.getByRole('button', { name: `Report review by ${reviewer.username}` });

/** Opens the report dialog from the keyboard: focus on the review's Report button, then Enter. */
async function openReportDialog(page: Page) {
  await reportButton(page).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Report this review' });
  await dialog.waitFor();
  return dialog;
}

describe('reporting and moderating a review', () => {
  it('reports a review through the dialog with the keyboard, and refuses a second report', async () => {
    const { context, page } = await newPage(suite.browser, { token: reporter.token });
    await gotoRoute(page, suite.server, `/cat/${catId}`);
    await page.getByText(REVIEW_TEXT).waitFor();
    // Anyone but its creator can report the cat itself too.
    await page.getByRole('button', { name: 'Report this cat' }).waitFor();

    const dialog = await openReportDialog(page);
    // The dialog takes focus onto the first reason; arrows pick one.
    const spam = dialog.getByRole('radio', { name: 'Spam' });
    expect(await spam.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Space');
    expect(await spam.isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Advertising, not a review');
    await dialog.getByText('25/500').waitFor();
    await page.keyboard.press('Tab'); // Cancel
    await page.keyboard.press('Tab'); // Submit
    await page.keyboard.press('Enter');
    await dialog.getByText('Thanks — a moderator will take a look.').waitFor();
    await page.keyboard.press('Enter'); // Close has the focus
    await dialog.waitFor({ state: 'detached' });
    expect(await reportButton(page).evaluate((el) => el === document.activeElement)).toBe(true);

    const again = await openReportDialog(page);
    await page.keyboard.press('ArrowDown'); // Offensive
    expect(await again.getByRole('radio', { name: 'Offensive' }).isChecked()).toBe(true);
    await again.getByRole('button', { name: 'Submit' }).click();
    await again.getByRole('alert').filter({ hasText: 'You already reported this.' }).waitFor();
    await page.keyboard.press('Escape');
    await again.waitFor({ state: 'detached' });
    expect(await reportButton(page).evaluate((el) => el === document.activeElement)).toBe(true);

    // Signed out: the log-in prompt instead of the dialog. Its author gets no Report button.
    const visitor = await newPage(suite.browser);
    await gotoRoute(visitor.page, suite.server, `/cat/${catId}`);
    await reportButton(visitor.page).click();
    await toast(visitor.page, 'Please log in to report this review').waitFor();
    const author = await newPage(suite.browser, { token: reviewer.token });
    await gotoRoute(author.page, suite.server, `/cat/${catId}`);
    await author.page.getByText(REVIEW_TEXT).waitFor();
    expect(await reportButton(author.page).count()).toBe(0);
    await Promise.all([visitor.context.close(), author.context.close(), context.close()]);
  });

  it('keeps the moderation page to moderators', async () => {
    const { context, page } = await newPage(suite.browser, { token: reporter.token });
    await gotoRoute(page, suite.server, '/moderation');
    await page.getByRole('heading', { name: 'Moderators only' }).waitFor();
    expect(await page.getByRole('link', { name: 'Moderation' }).count()).toBe(0);
    await context.close();
  });

  it('a moderator hides the review from the queue at phone width, and restores it', async () => {
    const { context, page } = await newPage(suite.browser, { viewport: 'phone', token: moderator.token });
    await gotoRoute(page, suite.server, '/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Moderation' }).click();
    await page.waitForURL(/#\/moderation$/);
    await page.getByRole('heading', { name: 'Moderation', level: 1 }).waitFor();

    const item = page.getByRole('article').filter({ hasText: REVIEW_TEXT });
    await item.waitFor();
    await item.getByText('1 report', { exact: true }).waitFor();
    await item.getByRole('list', { name: 'Reasons' }).getByText('Spam (1)').waitFor();
    await item.getByText('Visible').waitFor();
    expect(await item.getByRole('link', { name: 'Open the page it is on' }).getAttribute('href')).toBe(
      `#/cat/${catId}`,
    );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'moderation', 'phone');

    await item.getByLabel('Note (optional)').fill('Advertising');
    await item.getByRole('button', { name: 'Hide' }).click();
    await item.getByRole('status').filter({ hasText: 'Hidden.' }).waitFor();
    await item.locator('.queue-item__hidden').waitFor();
    expect(await item.getByRole('button', { name: 'Hide' }).isDisabled()).toBe(true);

    const visitor = await newPage(suite.browser);
    await gotoRoute(visitor.page, suite.server, `/cat/${catId}`);
    await visitor.page.getByText('No reviews yet. Be the first to review!').waitFor();
    expect(await visitor.page.getByText(REVIEW_TEXT).count()).toBe(0);
    const list = await callApi(suite.server, 'GET', `/api/reviews/cat/${catId}`);
    expect(list.body.reviews.map((r: { id: number }) => r.id)).not.toContain(reviewId);

    await item.getByRole('button', { name: 'Restore' }).click();
    await item.getByRole('status').filter({ hasText: 'Restored.' }).waitFor();
    await item.getByText('Visible').waitFor();
    await visitor.page.reload();
    await visitor.page.getByText(REVIEW_TEXT).waitFor();

    // Decided, it is under Resolved.
    await page.getByRole('tab', { name: 'Resolved' }).click();
    const resolved = page.getByRole('article').filter({ hasText: REVIEW_TEXT });
    await resolved.waitFor();
    expect(await resolved.getByRole('button', { name: 'Dismiss' }).count()).toBe(0);
    await Promise.all([visitor.context.close(), context.close()]);
  });

  it('marks a hidden cat to its creator with a banner', async () => {
    const hidden = await callApi(
      suite.server,
      'POST',
      `/api/moderation/cat/${catId}`,
      { action: 'hide' },
      moderator.token,
    );
    expect(hidden.status).toBe(200);
    const { context, page } = await newPage(suite.browser, { token: creator.token });
    await gotoRoute(page, suite.server, `/cat/${catId}`);
    await page.getByRole('note').filter({ hasText: 'Hidden by moderators' }).waitFor();
    expect(await page.getByRole('button', { name: 'Report this cat' }).count()).toBe(0);
    await context.close();
    // A hidden cat takes no new reviews from others; the next test reviews it again.
    const restored = await callApi(
      suite.server,
      'POST',
      `/api/moderation/cat/${catId}`,
      { action: 'restore' },
      moderator.token,
    );
    expect(restored.status).toBe(200);
  });

  it('tells a moderator reading the queue of new reports, and shows them when asked', async () => {
    /** A review of the cat by someone new, reported as spam: a new item in the open queue. */
    async function reportedReview(text: string) {
      const id = await reviewCat(await registerUser(suite.server, 'poster'), 2, text);
      const report = await callApi(
        suite.server,
        'POST',
        '/api/reports',
        { target_type: 'review', target_id: id, reason: 'spam' },
        reporter.token,
      );
      expect(report.status).toBe(201);
    }
    await reportedReview('First of many: cheap pills');
    const { context, page } = await newPage(suite.browser, { token: moderator.token });
    await gotoRoute(page, suite.server, '/moderation');
    const first = page.getByRole('article').filter({ hasText: 'First of many: cheap pills' });
    await first.waitFor();

    await reportedReview('Second of many: cheap loans');
    // The page reads the queue again every 20 s while visible, and when the tab comes back.
    await page.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
    const notice = page.getByRole('status').filter({ hasText: '1 new item in the queue.' });
    await notice.waitFor();
    // Nothing moved under the moderator meanwhile.
    expect(await page.getByRole('article').filter({ hasText: 'Second of many' }).count()).toBe(0);
    await screenshot(page, 'moderation-notice', 'desktop');
    await notice.getByRole('button', { name: 'Show' }).click();
    await page.getByRole('article').filter({ hasText: 'Second of many: cheap loans' }).waitFor();
    await first.waitFor();
    expect(await page.getByText('1 new item in the queue.').count()).toBe(0);
    await context.close();
  });

  it('shows a role granted or taken away without signing in again', async () => {
    const member = await registerUser(suite.server, 'promoted');
    const { context, page } = await newPage(suite.browser, { token: member.token });
    await gotoRoute(page, suite.server, '/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Saved' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Moderation' }).count()).toBe(0);

    expect((await setRole(member.username, 'moderator')).code).toBe(0);
    // Coming back to the tab reads the profile again.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await nav.getByRole('link', { name: 'Moderation' }).click();
    await page.getByRole('heading', { name: 'Moderation', level: 1 }).waitFor();

    // Taken away while the page is open: the next read of the queue is refused, and the link goes.
    expect((await setRole(member.username, 'member')).code).toBe(0);
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await page.getByRole('heading', { name: 'Moderators only' }).waitFor();
    await nav.getByRole('link', { name: 'Saved' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Moderation' }).count()).toBe(0);
    await context.close();
  });
});
