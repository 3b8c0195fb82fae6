// `npm run screenshots`: every main screen at desktop and phone sizes, with real data behind them,
// written to artifacts/screenshots/ (which git ignores) for a person to look at. The browser tests
// assert what screens show; this walk only captures them. Needs a build (`npm run build`).
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import {
  callApi,
  gotoRoute,
  launchBrowser,
  newPage,
  registerUser,
  screenshot,
  startServer,
  VIEWPORTS,
  type RunningServer,
  type TestUser,
  type ViewportName,
} from '../tests/browser/harness.ts';

const server: RunningServer = await startServer();
let creator: TestUser;
let visitor: TestUser;
let catId = 0;
let emptyCatId = 0;
let bodegaId = 0;

async function uploadPhoto(
  type: 'cats' | 'bodegas',
  id: number,
  color: [number, number, number],
  caption: string,
) {
  const image = await sharp({
    create: { width: 1600, height: 1200, channels: 3, background: { r: color[0], g: color[1], b: color[2] } },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg width="1600" height="1200"><circle cx="800" cy="640" r="360" fill="rgb(${color.map((c) => Math.max(0, c - 70)).join(',')})"/></svg>`,
        ),
      },
    ])
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('caption', caption);
  form.append('photo', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'photo.jpg');
  const response = await fetch(`${server.baseUrl}/api/photos/${type}/${id}/photos`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${creator.token}` },
    body: form,
  });
  if (response.status !== 201) throw new Error(`photo upload failed: ${response.status}`);
}

async function waitForPhotos(path: string, count: number) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const reply = await callApi(server, 'GET', path);
    const photos = (reply.body.cat ?? reply.body.bodega).photos as { status: string }[];
    if (photos.filter((p) => p.status === 'ready').length >= count) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`photos of ${path} did not become ready`);
}

async function seed() {
  creator = await registerUser(server, 'maker');
  visitor = await registerUser(server, 'visitor');
  const cat = await callApi(
    server,
    'POST',
    '/api/cats',
    {
      name: 'Biscuit',
      bodega_name: 'Sunrise Deli & Grocery',
      address: '100 W 40th St, New York, NY 10018',
      latitude: 40.7536,
      longitude: -73.9848,
      description:
        'Biscuit runs the register from the top of the lottery machine and greets every regular by name. Ask for a chin scratch.',
      age: '6 years',
      breed: 'Orange Tabby',
      sex: 'Male',
      color: 'Orange',
      weight: '14 lbs',
      personality: 'Friendly',
    },
    creator.token,
  );
  catId = cat.body.cat.id;
  bodegaId = cat.body.bodega.id;
  await callApi(
    server,
    'PUT',
    `/api/bodegas/${bodegaId}`,
    {
      name: 'Sunrise Deli & Grocery',
      address: '100 W 40th St, New York, NY 10018',
      description: 'Bacon egg and cheese all day, and two cats who keep the mice honest.',
      phone: '(212) 555-0142',
      hours: 'Open 24 hours',
      latitude: 40.7536,
      longitude: -73.9848,
    },
    creator.token,
  );
  const second = await callApi(
    server,
    'POST',
    '/api/cats',
    {
      name: 'Pepper',
      bodega_name: 'Sunrise Deli & Grocery',
      address: '100 W 40th St, New York, NY 10018',
      breed: 'Tuxedo',
      age: '2 years',
      description: 'Sleeps in the bread aisle.',
    },
    creator.token,
  );
  emptyCatId = second.body.cat.id;
  await uploadPhoto('cats', catId, [226, 140, 60], 'Biscuit on the counter');
  await uploadPhoto('cats', catId, [120, 90, 60], 'Nap time');
  await uploadPhoto('bodegas', bodegaId, [40, 120, 140], 'The storefront');
  await waitForPhotos(`/api/cats/${catId}`, 2);
  await waitForPhotos(`/api/bodegas/${bodegaId}`, 1);
  await callApi(
    server,
    'POST',
    '/api/reviews',
    {
      cat_id: catId,
      rating: 5,
      comment: 'The friendliest cat in Midtown. Purred the whole time I was in line.',
    },
    visitor.token,
  );
  await callApi(
    server,
    'POST',
    '/api/reviews',
    { cat_id: catId, rating: 4, comment: 'Sat on my newspaper.' },
    creator.token,
  );
  await callApi(
    server,
    'POST',
    '/api/reviews',
    { bodega_id: bodegaId, rating: 4, comment: 'Great sandwiches, better cats.' },
    visitor.token,
  );
  await callApi(server, 'POST', `/api/cats/${catId}/save`, undefined, creator.token);
  await callApi(server, 'POST', `/api/bodegas/${bodegaId}/save`, undefined, creator.token);
}

type Shot = {
  name: string;
  route: string;
  ready(page: Page): Promise<unknown>;
  user?: 'creator' | 'visitor';
  act?(page: Page): Promise<unknown>;
};

const SHOTS: Shot[] = [
  {
    name: 'home',
    route: '/',
    ready: (p) => p.getByRole('heading', { name: 'Find Bodega Cats in NYC' }).waitFor(),
  },
  {
    name: 'home-signed-in',
    route: '/',
    user: 'creator',
    ready: (p) =>
      p
        .getByRole('button', { name: 'Logout' })
        .or(p.getByRole('button', { name: 'Open menu' }))
        .waitFor(),
  },
  { name: 'login', route: '/login', ready: (p) => p.getByRole('button', { name: 'Sign in' }).waitFor() },
  {
    name: 'register',
    route: '/register',
    ready: (p) => p.getByRole('button', { name: 'Create account' }).waitFor(),
  },
  {
    name: 'search',
    route: '/search',
    ready: (p) => p.getByRole('heading', { name: 'Cats Found (2)' }).waitFor(),
  },
  {
    name: 'search-suggestions',
    route: '/search',
    ready: (p) => p.getByRole('option', { name: /Biscuit/ }).waitFor(),
    act: async (p) => {
      await p.getByRole('heading', { name: 'Cats Found (2)' }).waitFor();
      await p.getByRole('combobox', { name: 'Search cats and bodegas' }).pressSequentially('bisc');
    },
  },
  {
    name: 'search-filters',
    route: '/search',
    ready: (p) => p.getByRole('heading', { name: 'Cats Found (1)' }).waitFor(),
    act: async (p) => {
      await p.getByRole('heading', { name: 'Cats Found (2)' }).waitFor();
      await p.getByRole('button', { name: /^Filters/ }).click();
      await p.getByLabel('Breed', { exact: true }).selectOption('Orange Tabby');
    },
  },
  {
    name: 'cat-detail',
    route: '',
    ready: (p) => p.locator('img.detail-hero__photo').waitFor(),
    user: 'creator',
  },
  {
    name: 'cat-review-form',
    route: '',
    user: 'creator',
    ready: (p) => p.getByRole('form', { name: 'Write a review' }).waitFor(),
    act: (p) => p.getByRole('button', { name: 'Write Review' }).click(),
  },
  {
    name: 'cat-detail-no-photo',
    route: 'empty-cat',
    ready: (p) => p.getByText('No reviews yet. Be the first to review!').waitFor(),
  },
  {
    name: 'bodega-detail',
    route: 'bodega',
    ready: (p) => p.getByRole('heading', { name: 'Cats (2)' }).waitFor(),
    user: 'creator',
  },
  {
    name: 'cat-edit',
    route: 'cat-edit',
    ready: (p) => p.getByRole('button', { name: 'Save Changes' }).waitFor(),
    user: 'creator',
  },
  {
    name: 'bodega-edit',
    route: 'bodega-edit',
    ready: (p) => p.getByRole('button', { name: 'Delete Bodega' }).waitFor(),
    user: 'creator',
  },
  {
    name: 'edit-unauthorized',
    route: 'cat-edit',
    ready: (p) => p.getByRole('heading', { name: 'Unauthorized' }).waitFor(),
    user: 'visitor',
  },
  {
    name: 'cat-not-found',
    route: '/cat/999999',
    ready: (p) => p.getByRole('heading', { name: 'Cat Not Found' }).waitFor(),
  },
  {
    name: 'upload-cat',
    route: '/upload',
    ready: (p) => p.getByRole('form', { name: 'Upload Cat' }).waitFor(),
    user: 'creator',
  },
  {
    name: 'upload-bodega',
    route: '/upload',
    user: 'creator',
    ready: (p) => p.getByRole('form', { name: 'Upload Bodega' }).waitFor(),
    act: (p) => p.getByRole('tab', { name: 'Upload Bodega' }).click(),
  },
  {
    name: 'saved',
    route: '/saved',
    ready: (p) => p.getByRole('heading', { name: 'Biscuit' }).waitFor(),
    user: 'creator',
  },
  {
    name: 'saved-bodegas',
    route: '/saved',
    user: 'creator',
    ready: (p) => p.getByRole('heading', { name: 'Sunrise Deli & Grocery' }).waitFor(),
    act: (p) => p.getByRole('tab', { name: /Saved Bodegas/ }).click(),
  },
  {
    name: 'saved-empty',
    route: '/saved',
    ready: (p) => p.getByText('No saved cats yet').waitFor(),
    user: 'visitor',
  },
  {
    name: 'recently-viewed',
    route: '/recently-viewed',
    ready: (p) => p.locator('.item-card').nth(1).waitFor(),
    user: 'creator',
  },
];

function routeOf(shot: Shot): string {
  switch (shot.route) {
    case '':
      return `/cat/${catId}`;
    case 'empty-cat':
      return `/cat/${emptyCatId}`;
    case 'bodega':
      return `/bodega/${bodegaId}`;
    case 'cat-edit':
      return `/cat/${catId}/edit`;
    case 'bodega-edit':
      return `/bodega/${bodegaId}/edit`;
    default:
      return shot.route;
  }
}

async function capture(browser: Browser, shot: Shot, viewport: ViewportName) {
  const token = shot.user === 'creator' ? creator.token : shot.user === 'visitor' ? visitor.token : undefined;
  const { context, page } = await newPage(browser, { viewport, token });
  await gotoRoute(page, server, routeOf(shot));
  if (shot.act) await shot.act(page);
  await shot.ready(page);
  await page.evaluate(() => document.fonts.ready);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  console.log(await screenshot(page, shot.name, viewport));
  await context.close();
}

const browser = await launchBrowser();
try {
  await seed();
  for (const viewport of Object.keys(VIEWPORTS) as ViewportName[]) {
    for (const shot of SHOTS) await capture(browser, shot, viewport);
  }
} finally {
  await browser.close();
  await server.stop();
}
