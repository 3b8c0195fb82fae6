// Contributing in the browser against the real server: add a cat on the Upload screen, find it in
// search, review it, add photos (processed by the worker and announced live), make one primary,
// save and unsave, edit and delete as its creator, and the 'Unauthorized' page for anyone else.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { browserSuite, callApi, gotoRoute, newPage, registerUser, type TestUser } from './harness.ts';

const suite = browserSuite();
let creator: TestUser;
let other: TestUser;
let creatorPage: { context: BrowserContext; page: Page };
let catId = 0;

const CAT = { name: 'Marmalade', bodega: 'Golden Star Deli', address: '55 Water St, New York, NY' };

async function jpeg(
  color: { r: number; g: number; b: number },
  width = 1600,
  height = 1200,
): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

function toast(page: Page, text: string) {
  return page.getByRole('status').filter({ hasText: text }).first().waitFor({ timeout: 15_000 });
}

async function confirmNext(page: Page, expected: string, accept = true): Promise<void> {
  page.once('dialog', (dialog) => {
    expect(dialog.type()).toBe('confirm');
    expect(dialog.message()).toBe(expected);
    void (accept ? dialog.accept() : dialog.dismiss());
  });
}

const gallery = (page: Page) => page.getByRole('list', { name: `Photos of ${CAT.name}` });

beforeAll(async () => {
  creator = await registerUser(suite.server, 'maker');
  other = await registerUser(suite.server, 'other');
  creatorPage = await newPage(suite.browser, { token: creator.token });
});

afterAll(async () => {
  await creatorPage?.context.close();
});

describe('contributing a cat', () => {
  it('adds a cat on the Upload screen, and the form resets', async () => {
    const { page } = creatorPage;
    await gotoRoute(page, suite.server, '/upload');
    const form = page.getByRole('form', { name: 'Upload Cat' });
    await form.getByLabel('Cat Name').fill(CAT.name);
    await form.getByLabel('Bodega Name').fill(CAT.bodega);
    await form.getByLabel('Address', { exact: true }).fill(CAT.address);
    await form.getByLabel('Description').fill('Naps on the newspapers by the door.');
    await form.getByLabel('Age').fill('4 years');
    await form.getByLabel('Breed').fill('Orange Tabby');
    await form.getByLabel('Sex').selectOption('Male');
    await form.getByLabel('Personality').fill('Sleepy');
    expect(await form.getByLabel('Friendly with customers').isChecked()).toBe(true);
    await form.getByRole('button', { name: 'Upload Cat' }).click();
    await toast(page, 'Cat uploaded successfully!');
    expect(await form.getByLabel('Cat Name').inputValue()).toBe('');
    const view = page.getByRole('link', { name: 'View cat' });
    catId = Number((await view.getAttribute('href'))!.split('/').pop());
    expect(catId).toBeGreaterThan(0);
  });

  it('finds it in search and opens its page with every detail', async () => {
    const { page } = creatorPage;
    await gotoRoute(page, suite.server, '/search');
    await page.getByLabel('Search cats and bodegas').fill(CAT.name);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByTestId('cat-card').filter({ hasText: CAT.name }).click();
    await page.waitForURL(new RegExp(`#/cat/${catId}$`));
    await page.getByRole('heading', { level: 1, name: CAT.name }).waitFor();
    const about = page.getByRole('region', { name: `About ${CAT.name}` });
    expect(await about.textContent()).toContain('Naps on the newspapers by the door.');
    for (const text of ['Age4 years', 'BreedOrange Tabby', 'SexMale', 'PersonalitySleepy', 'FriendlyYes'])
      expect((await about.locator('dl').textContent())!.replace(/\s+/g, '')).toContain(
        text.replace(/\s+/g, ''),
      );
    const info = page.getByRole('region', { name: 'Bodega Information' });
    expect(await info.textContent()).toContain(CAT.bodega);
    expect(await info.textContent()).toContain('Pending');
    await page.getByRole('link', { name: 'Edit cat' }).waitFor();
    expect(await page.getByText('No reviews yet. Be the first to review!').isVisible()).toBe(true);
  });

  it('writes a review, and the rating updates without a reload', async () => {
    const { page } = creatorPage;
    await page.getByRole('button', { name: 'Write Review' }).click();
    const form = page.getByRole('form', { name: 'Write a review' });
    expect(await form.getByLabel('5 stars').isChecked()).toBe(true);
    await form.getByText('★').nth(3).click();
    expect(await form.getByLabel('4 stars').isChecked()).toBe(true);
    await form.getByLabel('Comment').fill('Best nap spot in the Financial District.');
    await form.getByRole('button', { name: 'Submit Review' }).click();
    await toast(page, 'Review submitted successfully');
    await form.waitFor({ state: 'detached' });
    const review = page.locator('.review').first();
    expect(await review.textContent()).toContain(creator.username);
    expect(await review.textContent()).toContain('Best nap spot in the Financial District.');
    await review.getByRole('img', { name: 'Rated 4.0 out of 5' }).waitFor();
    // The ratings worker recomputes; the live stream brings the figure to the open page.
    await page.locator('.detail-hero').getByText('(1 review)').waitFor({ timeout: 20_000 });
    expect(await page.locator('.detail-hero .detail-rating__value').textContent()).toBe('4.0');
  });

  it('uploads a photo that becomes ready and primary on the open page, live', async () => {
    const { page } = creatorPage;
    await page.getByLabel('Photo', { exact: true }).setInputFiles({
      name: 'marmalade.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpeg({ r: 230, g: 140, b: 40 }),
    });
    await page.getByLabel('Caption (optional)').fill('Sunbathing');
    await page.getByRole('button', { name: 'Upload Photo' }).click();
    await toast(page, 'Photo uploaded successfully!');
    const thumb = gallery(page).getByRole('img', { name: 'Sunbathing' });
    await thumb.waitFor({ timeout: 30_000 });
    expect(await thumb.getAttribute('src')).toMatch(/_thumb\.webp$/);
    expect(Number(await thumb.getAttribute('width'))).toBe(1280);
    expect(Number(await thumb.getAttribute('height'))).toBe(960);
    const hero = page.locator('img.detail-hero__photo');
    await hero.waitFor();
    expect(await hero.getAttribute('src')).toMatch(/_large\.webp$/);
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
  });

  it('rejects a wrong file in the suite.browser before sending it', async () => {
    const { page } = creatorPage;
    await page.getByLabel('Photo', { exact: true }).setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a cat'),
    });
    await toast(page, 'Invalid file type. Please upload a JPEG, PNG, GIF, or WebP image.');
    expect(await page.getByRole('button', { name: 'Upload Photo' }).isDisabled()).toBe(true);
  });

  it('makes a second photo primary', async () => {
    const { page } = creatorPage;
    await page.getByLabel('Photo', { exact: true }).setInputFiles({
      name: 'second.jpg',
      mimeType: 'image/jpeg',
      buffer: await jpeg({ r: 60, g: 90, b: 200 }, 900, 1200),
    });
    await page.getByLabel('Caption (optional)').fill('Blue hour');
    await page.getByRole('button', { name: 'Upload Photo' }).click();
    await toast(page, 'Photo uploaded successfully!');
    const second = gallery(page).locator('li').filter({ hasText: 'Blue hour' });
    await second.getByRole('button', { name: 'Set as primary' }).click({ timeout: 30_000 });
    await toast(page, 'Primary photo updated');
    await second.getByText('Primary', { exact: true }).waitFor();
    const hero = page.locator('img.detail-hero__photo');
    await expect.poll(() => hero.getAttribute('alt')).toBe('Blue hour');
    // The page reserves the photo's own (portrait) shape before it loads.
    const [width, height] = [await hero.getAttribute('width'), await hero.getAttribute('height')];
    expect(Number(width) / Number(height)).toBeCloseTo(0.75, 2);
  });

  it('saves and unsaves the cat, from the page and from Saved', async () => {
    const { page } = creatorPage;
    await page.getByRole('button', { name: 'Save Cat' }).first().click();
    await toast(page, 'Added to saved cats');
    expect(
      await page.getByRole('button', { name: 'Remove from Saved' }).first().getAttribute('aria-pressed'),
    ).toBe('true');
    await gotoRoute(page, suite.server, '/saved');
    await page.getByRole('tab', { name: 'Saved Cats (1)' }).waitFor();
    await page.getByRole('tab', { name: 'Saved Bodegas (0)' }).waitFor();
    await page.getByRole('heading', { name: CAT.name }).waitFor();
    // The card shows the small variant of the cat's primary photo.
    expect(await page.getByRole('img', { name: CAT.name }).getAttribute('src')).toMatch(/_thumb\.webp$/);
    await page.getByRole('button', { name: `Remove ${CAT.name} from saved cats` }).click();
    await toast(page, 'Removed from saved cats');
    await page.getByText('No saved cats yet').waitFor();
    await page.getByRole('tab', { name: 'Saved Cats (0)' }).waitFor();

    await gotoRoute(page, suite.server, `/cat/${catId}`);
    await page.getByRole('heading', { level: 1, name: CAT.name }).waitFor();
    const quick = page.getByRole('region', { name: 'Quick Actions' });
    await quick.getByRole('button', { name: 'Save Cat' }).click();
    await toast(page, 'Added to saved cats');
    // The page itself says it is saved when opened again.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: CAT.name }).waitFor();
    expect(
      await page.getByRole('button', { name: 'Remove from Saved' }).first().getAttribute('aria-pressed'),
    ).toBe('true');
    await quick.getByRole('button', { name: 'Remove from Saved' }).click();
    await toast(page, 'Removed from saved cats');
    await quick.getByRole('button', { name: 'Save Cat' }).waitFor();
  });

  it('shows the bodega page with its cats, location and Added date', async () => {
    const { page } = creatorPage;
    await page.getByRole('link', { name: 'View Bodega' }).click();
    await page.getByRole('heading', { level: 1, name: CAT.bodega }).waitFor();
    await page.getByRole('heading', { name: 'Cats (1)' }).waitFor();
    await page.locator('.bodega-cat').filter({ hasText: CAT.name }).waitFor();
    await page.getByText('Map will be displayed here').waitFor();
    const added = new Date().toLocaleDateString('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
    await page.getByText(`Added ${added}`).waitFor();
    await page.getByRole('region', { name: 'Contact & Hours' }).waitFor();
  });

  it("shows 'Unauthorized' to another user and hides the creator's controls", async () => {
    const { context, page } = await newPage(suite.browser, { token: other.token });
    await gotoRoute(page, suite.server, `/cat/${catId}`);
    await page.getByRole('heading', { level: 1, name: CAT.name }).waitFor();
    expect(await page.getByRole('link', { name: 'Edit cat' }).count()).toBe(0);
    await gallery(page).waitFor();
    expect(
      await gallery(page)
        .getByRole('button')
        .filter({ hasText: /Delete|Set as primary/ })
        .count(),
    ).toBe(0);
    await gotoRoute(page, suite.server, `/cat/${catId}/edit`);
    await page.getByRole('heading', { name: 'Unauthorized' }).waitFor();
    await page.getByText('You can only edit cats that you created.').waitFor();
    await context.close();
  });

  it('edits the cat as its creator', async () => {
    const { page } = creatorPage;
    await gotoRoute(page, suite.server, `/cat/${catId}`);
    await page.getByRole('link', { name: 'Edit cat' }).click();
    await page.getByText('Bodega information cannot be changed from this form').waitFor();
    await page.getByLabel('Cat Name').fill('Sir Marmalade');
    await page.getByLabel('Color').fill('Ginger');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Cat updated successfully!');
    await page.waitForURL(new RegExp(`#/cat/${catId}$`));
    await page.getByRole('heading', { level: 1, name: 'Sir Marmalade' }).waitFor();
  });

  it('tells the creator when the cat changed since the edit page opened', async () => {
    const { page } = creatorPage;
    await gotoRoute(page, suite.server, `/cat/${catId}/edit`);
    await page.getByLabel('Cat Name').waitFor();
    const changed = await callApi(
      suite.server,
      'PUT',
      `/api/cats/${catId}`,
      { name: 'Marmalade II' },
      creator.token,
    );
    expect(changed.status).toBe(200);
    await page.getByLabel('Cat Name').fill('Stale edit');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByRole('alert').filter({ hasText: 'changed by someone else' }).waitFor();
    await page.getByRole('button', { name: 'Load latest version' }).click();
    await expect.poll(() => page.getByLabel('Cat Name').inputValue()).toBe('Marmalade II');
    await page.getByRole('alert').waitFor({ state: 'detached' });
  });

  it('deletes a photo after confirming', async () => {
    const { page } = creatorPage;
    await gotoRoute(page, suite.server, `/cat/${catId}`);
    const first = gallery(page).locator('li').filter({ hasText: 'Sunbathing' });
    await confirmNext(page, 'Are you sure you want to delete this photo?', false);
    await first.getByRole('button', { name: /Delete/ }).click();
    expect(await first.count()).toBe(1);
    await confirmNext(page, 'Are you sure you want to delete this photo?');
    await first.getByRole('button', { name: /Delete/ }).click();
    await toast(page, 'Photo deleted successfully');
    await first.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Photos (1)' }).waitFor();
  });

  it('lists what was viewed with relative times, then clears the history', async () => {
    const { page } = creatorPage;
    await gotoRoute(page, suite.server, '/recently-viewed');
    await page.getByRole('heading', { level: 1, name: 'Recently Viewed' }).waitFor();
    const cat = page
      .locator('.item-card')
      .filter({ has: page.getByRole('heading', { name: 'Marmalade II' }) });
    const bodega = page
      .locator('.item-card')
      .filter({ has: page.getByRole('heading', { name: CAT.bodega }) });
    await cat.waitFor();
    expect(await cat.locator('.badge').textContent()).toBe('Cat');
    expect(await cat.locator('time').textContent()).toBe('Just now');
    expect(await bodega.locator('.badge').textContent()).toBe('Bodega');
    await page.getByRole('button', { name: 'Clear History' }).click();
    await toast(page, 'Recently viewed items cleared');
    await page.getByText('No recently viewed items').waitFor();
    await page.reload();
    await page.getByText('No recently viewed items').waitFor();
  });

  it('deletes the cat as its creator after confirming', async () => {
    const { page } = creatorPage;
    await gotoRoute(page, suite.server, `/cat/${catId}/edit`);
    await confirmNext(page, 'Are you sure you want to delete this cat? This action cannot be undone.');
    await page.getByRole('button', { name: 'Delete Cat' }).click();
    await toast(page, 'Cat deleted successfully!');
    await page.waitForURL(/#\/search/);
    await gotoRoute(page, suite.server, `/cat/${catId}`);
    await page.getByRole('heading', { name: 'Cat Not Found' }).waitFor();
    await page.getByText("The cat you're looking for doesn't exist.").waitFor();
  });
});

describe('live updates on an open page', () => {
  /** The creator adds a cat through the API; returns its id. */
  async function addCat(name: string, bodegaName: string, address: string): Promise<number> {
    const added = await callApi(
      suite.server,
      'POST',
      '/api/cats',
      { name, bodega_name: bodegaName, address },
      creator.token,
    );
    return added.body.cat.id as number;
  }

  it("shows another user's review and the new rating without a reload", async () => {
    const id = await addCat('Pickles', 'Live Deli', '9 Live St, New York, NY');
    const watcher = await newPage(suite.browser);
    await gotoRoute(watcher.page, suite.server, `/cat/${id}`);
    await watcher.page.getByText('No reviews yet. Be the first to review!').waitFor();
    const posted = await callApi(
      suite.server,
      'POST',
      '/api/reviews',
      { cat_id: id, rating: 2, comment: 'Hissed at me.' },
      other.token,
    );
    expect(posted.status).toBe(201);
    await watcher.page.getByText('Hissed at me.').waitFor({ timeout: 20_000 });
    await watcher.page.locator('.review').getByText(other.username).waitFor();
    await watcher.page.locator('.detail-hero').getByText('(1 review)').waitFor({ timeout: 20_000 });
    expect(await watcher.page.locator('.detail-hero .detail-rating__value').textContent()).toBe('2.0');
    await watcher.context.close();
  });
  it('keeps a review posted while the page was still loading its reviews', async () => {
    const id = await addCat('Olive', 'Slow Deli', '10 Live St, New York, NY');
    const watcher = await newPage(suite.browser);
    // The page's first read of the reviews is answered before the review is posted, and reaches
    // the page only after the review has come live.
    let read!: () => void;
    const wasRead = new Promise<void>((resolve) => (read = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await watcher.page.route(`**/api/reviews/cat/${id}?*`, async (route) => {
      const response = await route.fetch();
      read();
      await released;
      await route.fulfill({ response });
    });
    await gotoRoute(watcher.page, suite.server, `/cat/${id}`);
    await wasRead;
    const posted = await callApi(
      suite.server,
      'POST',
      '/api/reviews',
      { cat_id: id, rating: 4, comment: 'Came live first.' },
      other.token,
    );
    expect(posted.status).toBe(201);
    await watcher.page.getByText('Came live first.').waitFor({ timeout: 20_000 });
    const answered = watcher.page.waitForResponse(`**/api/reviews/cat/${id}?*`);
    release();
    await answered;
    await watcher.page.locator('.detail-hero').getByText('(1 review)').waitFor({ timeout: 20_000 });
    expect(await watcher.page.getByText('Came live first.').isVisible()).toBe(true);
    await watcher.context.close();
  });
});

describe("a bodega's creator", () => {
  it('adds a bodega, edits it, and deletes it; anyone else is unauthorized', async () => {
    const { page } = creatorPage;
    await gotoRoute(page, suite.server, '/upload');
    await page.getByRole('tab', { name: 'Upload Bodega' }).click();
    const form = page.getByRole('form', { name: 'Upload Bodega' });
    expect(await form.getByLabel('Number of Cats').inputValue()).toBe('1');
    await form.getByLabel('Bodega Name').fill('Night Owl Grocery');
    await form.getByLabel('Address', { exact: true }).fill('12 Pearl St, New York, NY');
    await form.getByLabel('Hours').fill('6am-2am');
    await form.getByRole('button', { name: 'Upload Bodega' }).click();
    await toast(page, 'Bodega uploaded successfully!');
    expect(await form.getByLabel('Bodega Name').inputValue()).toBe('');
    await page.getByRole('link', { name: 'View bodega' }).click();
    await page.getByRole('heading', { level: 1, name: 'Night Owl Grocery' }).waitFor();
    await page.getByText('No cats listed yet.').waitFor();
    const id = Number(page.url().split('/').pop());

    const stranger = await newPage(suite.browser, { token: other.token });
    await gotoRoute(stranger.page, suite.server, `/bodega/${id}/edit`);
    await stranger.page.getByRole('heading', { name: 'Unauthorized' }).waitFor();
    await stranger.page.getByText('You can only edit bodegas that you created.').waitFor();
    await stranger.context.close();

    await page.getByRole('link', { name: 'Edit bodega' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).waitFor();
    await page.getByLabel('Hours', { exact: true }).fill('Open 24 hours');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await toast(page, 'Bodega updated successfully!');
    await page.getByRole('region', { name: 'Contact & Hours' }).getByText('Open 24 hours').waitFor();

    await page.getByRole('link', { name: 'Edit bodega' }).click();
    await confirmNext(
      page,
      'Are you sure you want to delete this bodega? This will also delete all associated cats and cannot be undone.',
    );
    await page.getByRole('button', { name: 'Delete Bodega' }).click();
    await toast(page, 'Bodega deleted successfully!');
    await page.waitForURL(/#\/search/);
    await gotoRoute(page, suite.server, `/bodega/${id}`);
    await page.getByRole('heading', { name: 'Bodega Not Found' }).waitFor();
  });
});
