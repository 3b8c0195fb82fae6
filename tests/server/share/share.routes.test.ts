// Share links (API.md, "Share links"): the page's preview tags, absolute and escaped; the card, a
// real 1200×630 PNG over the primary photo or drawn, made again when what it shows changes and
// kept otherwise; and one bare 404 for whatever a visitor may not see.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '../../../server/moderation/roles.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { imageOf } from '../../fixtures/images.ts';
import { createPhotoTestApp, uploadPhoto, type PhotoTestApp } from '../photos/helpers.ts';
import { send, signUp, type Caller } from '../catalogue/signed-in.ts';

const BASE = 'https://cats.example.org';

let t: PhotoTestApp;
/** A second api process on the same database, with PUBLIC_BASE_URL set. */
let publicApp: TestApp;
let owner: Caller;
let moderator: Caller;

beforeAll(async () => {
  t = await createPhotoTestApp();
  publicApp = await createTestApp({
    sameDatabaseAs: t,
    worker: false,
    config: { uploadDir: t.uploadDir, publicBaseUrl: `${BASE}/`, logLevel: 'silent' },
  });
  owner = await signUp(t, 'sharer');
  moderator = await signUp(t, 'sharemod');
  await setRole(t.services, moderator.username, 'moderator');
});
afterAll(async () => {
  await publicApp?.close();
  await t?.close();
});

async function addCat(name: string, bodegaName = "Joe's Deli", extra: Record<string, unknown> = {}) {
  const res = await send(t, 'POST', '/api/cats', {
    caller: owner,
    body: { name, bodega_name: bodegaName, address: `${name.length} Main St, New York, NY`, ...extra },
  });
  expect(res.status).toBe(201);
  return { cat: res.body.cat.id as number, bodega: res.body.bodega.id as number };
}

async function get(path: string, headers: Record<string, string> = {}, app: TestApp = t) {
  return app.app.inject({ method: 'GET', url: path, headers });
}

/** The content of the tag `<meta {attribute}="{key}" content="...">`, still escaped. */
function metaOf(html: string, key: string): string | undefined {
  const match = new RegExp(
    `<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)">`,
  ).exec(html);
  return match?.[1];
}

/** The colour of one pixel of a PNG, as [r, g, b]. */
async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data } = await sharp(png)
    .extract({ left: x, top: y, width: 1, height: 1 })
    .removeAlpha()
    .raw()
    .toBuffer({
      resolveWithObject: true,
    });
  return [...data];
}

const near = (actual: number[], expected: number[]) =>
  actual.every((value, i) => Math.abs(value - expected[i]!) <= 12);

describe('the share page', () => {
  it('gives absolute preview tags under PUBLIC_BASE_URL, a link into the app, and short caching', async () => {
    const { cat } = await addCat('Whiskers', "Joe's Deli", { breed: 'Tabby' });
    const res = await get(`/c/${cat}`, {}, publicApp);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const html = res.body;
    expect(html).toContain('<title>Whiskers at Joe&#39;s Deli · Bodega Cats</title>');
    expect(metaOf(html, 'og:title')).toBe('Whiskers at Joe&#39;s Deli');
    expect(metaOf(html, 'og:description')).toBe(
      'A tabby at Joe&#39;s Deli, 8 Main St, New York, NY · No reviews yet',
    );
    expect(metaOf(html, 'og:url')).toBe(`${BASE}/c/${cat}`);
    expect(metaOf(html, 'og:type')).toBe('website');
    expect(metaOf(html, 'og:image')).toMatch(new RegExp(`^${BASE}/c/${cat}/card\\.png\\?v=[\\w-]{22}$`));
    expect(metaOf(html, 'og:image:width')).toBe('1200');
    expect(metaOf(html, 'og:image:height')).toBe('630');
    expect(metaOf(html, 'og:image:alt')).toBeTruthy();
    expect(metaOf(html, 'twitter:card')).toBe('summary_large_image');
    expect(html).toContain(`<a id="open" href="/#/cat/${cat}">`);
    expect(html).toContain('<script src="/share/open.js" defer></script>');

    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get(`/c/${cat}`, { 'if-none-match': etag }, publicApp);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const script = await get('/share/open.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain("getElementById('open')");
  });

  it('takes the address from the request when PUBLIC_BASE_URL is unset, and ignores a Host that is no host', async () => {
    const { bodega } = await addCat('Socks', 'Sunny Mart');
    const res = await get(`/b/${bodega}`, { host: 'share.test:8080' });
    expect(res.statusCode).toBe(200);
    expect(metaOf(res.body, 'og:url')).toBe(`http://share.test:8080/b/${bodega}`);
    expect(metaOf(res.body, 'og:image')).toMatch(
      new RegExp(`^http://share\\.test:8080/b/${bodega}/card\\.png\\?v=`),
    );
    expect(metaOf(res.body, 'og:title')).toBe('Sunny Mart');
    expect(metaOf(res.body, 'og:description')).toBe(
      'A bodega at 5 Main St, New York, NY with 1 cat · No reviews yet',
    );
    expect(res.body).toContain(`href="/#/bodega/${bodega}"`);
    const odd = await get(`/b/${bodega}`, { host: 'evil.test/"><script>' });
    expect(metaOf(odd.body, 'og:url')).toBe(`http://localhost/b/${bodega}`);
  });

  it('escapes every text a person wrote', async () => {
    const name = `<script>alert("hi")</script> & 'Tom'`;
    const { cat } = await addCat(name, `"Quote" <b>Deli</b>`);
    const res = await get(`/c/${cat}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).not.toContain('<b>Deli');
    expect(res.body.match(/<script/g)).toHaveLength(1);
    expect(metaOf(res.body, 'og:title')).toBe(
      '&#60;script&#62;alert(&#34;hi&#34;)&#60;/script&#62; &#38; &#39;Tom&#39; at &#34;Quote&#34; &#60;b&#62;Deli&#60;/b&#62;',
    );
    const card = await get(`/c/${cat}/card.png`);
    expect(card.statusCode).toBe(200);
    expect((await sharp(card.rawPayload).metadata()).width).toBe(1200);
  });
});

describe('what a visitor may not see', () => {
  it('answers one bare 404 page, naming nothing, for unknown, malformed, hidden and deleted items', async () => {
    const hiddenCat = await addCat('Secretpaws', 'Hush Deli');
    const hiddenShop = await addCat('Shopcat', 'Shade Mart');
    const deleted = await addCat('Gonecat', 'Gone Deli');
    for (const [type, id] of [
      ['cat', hiddenCat.cat],
      ['bodega', hiddenShop.bodega],
    ] as const)
      expect(
        (
          await send(t, 'POST', `/api/moderation/${type}/${id}`, {
            caller: moderator,
            body: { action: 'hide' },
          })
        ).status,
      ).toBe(200);
    expect((await send(t, 'DELETE', `/api/cats/${deleted.cat}`, { caller: owner })).status).toBe(200);

    const paths = [
      '/c/99999999',
      '/b/99999999',
      '/c/abc',
      '/c/0',
      '/c/-1',
      '/c/1e3',
      '/c/007',
      '/c/9007199254740992',
      '/b/99999999999999999999',
      `/c/${hiddenCat.cat}`,
      `/b/${hiddenShop.bodega}`,
      // A cat is hidden with its bodega.
      `/c/${hiddenShop.cat}`,
      `/c/${deleted.cat}`,
    ];
    const bodies = new Set<string>();
    for (const path of paths)
      for (const url of [path, `${path}/card.png`]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toBe('text/html; charset=utf-8');
        bodies.add(res.body);
      }
    expect(bodies.size).toBe(1);
    const [body] = [...bodies];
    for (const word of [
      'Secretpaws',
      'Hush',
      'Shopcat',
      'Shade',
      'Gonecat',
      'Gone Deli',
      'og:',
      'cat',
      'bodega',
    ])
      expect(body).not.toContain(word);
    // Its own creator, signed in, does not see it through a share link either: the page is public.
    const asOwner = await get(`/c/${hiddenCat.cat}`, { authorization: `Bearer ${owner.token}` });
    expect(asOwner.statusCode).toBe(404);
  });
});

describe('the card', () => {
  it('is a drawn 1200×630 PNG without a photo, and one over the primary photo once it is ready', async () => {
    const { cat } = await addCat('Marmalade');
    const drawn = await get(`/c/${cat}/card.png`);
    expect(drawn.statusCode).toBe(200);
    expect(drawn.headers['content-type']).toBe('image/png');
    expect(drawn.headers['cache-control']).toBe('public, max-age=300');
    const meta = await sharp(drawn.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1200, 630]);
    // The drawn card's background is the app's (#fdf8f3).
    expect(near(await pixel(drawn.rawPayload, 20, 250), [0xfd, 0xf8, 0xf3])).toBe(true);

    await uploadPhoto(t, 'cats', cat, await imageOf('jpeg', 640, 480), owner.token, { is_primary: 'true' });
    await t.settle();
    const page = await get(`/c/${cat}`);
    const withPhoto = await get(`/c/${cat}/card.png`);
    expect(withPhoto.statusCode).toBe(200);
    expect(withPhoto.headers['x-card-cache']).toBe('miss');
    expect(withPhoto.headers.etag).not.toBe(drawn.headers.etag);
    expect(metaOf(page.body, 'og:image')).toContain(
      `card.png?v=${(withPhoto.headers.etag as string).replace(/"/g, '')}`,
    );
    const photoMeta = await sharp(withPhoto.rawPayload).metadata();
    expect([photoMeta.format, photoMeta.width, photoMeta.height]).toEqual(['png', 1200, 630]);
    // The fixture photo is one colour (#d2691e), cover-cropped over the whole card.
    expect(near(await pixel(withPhoto.rawPayload, 20, 250), [0xd2, 0x69, 0x1e])).toBe(true);
  });

  it('is kept while nothing it shows changes, and made again after a rename', async () => {
    const { cat } = await addCat('Pickles');
    const first = await get(`/c/${cat}/card.png`);
    expect(first.headers['x-card-cache']).toBe('miss');
    const second = await get(`/c/${cat}/card.png`);
    expect(second.headers['x-card-cache']).toBe('hit');
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(Buffer.compare(second.rawPayload, first.rawPayload)).toBe(0);
    const unchanged = await get(`/c/${cat}/card.png`, { 'if-none-match': first.headers.etag as string });
    expect(unchanged.statusCode).toBe(304);

    // A review changes the page's rating but not the card.
    const review = await send(t, 'POST', '/api/reviews', {
      caller: moderator,
      body: { cat_id: cat, rating: 4 },
    });
    expect(review.status).toBe(201);
    expect((await get(`/c/${cat}/card.png`)).headers['x-card-cache']).toBe('hit');

    const renamed = await send(t, 'PUT', `/api/cats/${cat}`, {
      caller: owner,
      body: { name: 'Sir Pickles' },
    });
    expect(renamed.status).toBe(200);
    const page = await get(`/c/${cat}`);
    expect(metaOf(page.body, 'og:title')).toBe('Sir Pickles at Joe&#39;s Deli');
    const remade = await get(`/c/${cat}/card.png`);
    expect(remade.statusCode).toBe(200);
    expect(remade.headers['x-card-cache']).toBe('miss');
    expect(remade.headers.etag).not.toBe(first.headers.etag);
    expect(Buffer.compare(remade.rawPayload, first.rawPayload)).not.toBe(0);
    expect(metaOf(page.body, 'og:image')).toContain(`v=${(remade.headers.etag as string).replace(/"/g, '')}`);
  });

  it('is made once for requests that ask for a new card at the same time', async () => {
    const { bodega } = await addCat('Crowd', 'Busy Bodega');
    const answers = await Promise.all(Array.from({ length: 6 }, () => get(`/b/${bodega}/card.png`)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(200));
    expect(answers.filter((a) => a.headers['x-card-cache'] === 'miss')).toHaveLength(1);
    for (const answer of answers) expect(Buffer.compare(answer.rawPayload, answers[0]!.rawPayload)).toBe(0);
  });

  it('draws a Chinese name, and a long one cut short, without failing', async () => {
    const { cat } = await addCat('小橘猫在便利店里睡觉的时候最可爱了真的非常非常可爱', '金山便利店');
    const res = await get(`/c/${cat}/card.png`);
    expect(res.statusCode).toBe(200);
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 630]);
    const page = await get(`/c/${cat}`);
    expect(metaOf(page.body, 'og:title')).toBe(
      '小橘猫在便利店里睡觉的时候最可爱了真的非常非常可爱 at 金山便利店',
    );
  });
});
