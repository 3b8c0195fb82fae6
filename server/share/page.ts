// The HTML of a share link: the Open Graph and Twitter tags link-preview crawlers read, and for a
// person a visible link into the app, which a small script of this server's own follows at once
// (the CSP allows scripts from 'self' only; crawlers run none and read the tags).
import type { ShareItem } from './item.ts';

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Where the app shows the item: a hash route of the client's router. */
export function appPath(item: Pick<ShareItem, 'type' | 'id'>): string {
  return `/#/${item.type}/${item.id}`;
}

/** The share link's own path: /c/{id} or /b/{id}. */
export function sharePath(item: Pick<ShareItem, 'type' | 'id'>): string {
  return `/${item.type === 'cat' ? 'c' : 'b'}/${item.id}`;
}

export const REDIRECT_SCRIPT_PATH = '/share/open.js';

/** Follows the page's app link (the element with id "open"); the link stays for people without scripts. */
export const REDIRECT_SCRIPT = `(function () {
  var link = document.getElementById('open');
  if (link && link.href) window.location.replace(link.href);
})();
`;

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

function rating(item: ShareItem): string {
  if (item.reviewCount === 0) return 'No reviews yet';
  const reviews = `${item.reviewCount} review${item.reviewCount === 1 ? '' : 's'}`;
  return `★ ${item.rating.toFixed(1)} from ${reviews}`;
}

/** A cat: "Whiskers at Joe's Deli"; a bodega: its name. */
export function shareTitle(item: ShareItem): string {
  return item.shop === null ? item.name : `${item.name} at ${item.shop}`;
}

/**
 * A cat: "A tabby at Joe's Deli, 123 Main St · ★ 4.5 from 12 reviews"; a bodega: "A bodega at
 * 123 Main St with 3 cats · ★ 4.5 from 12 reviews".
 */
export function shareDescription(item: ShareItem): string {
  if (item.shop !== null) {
    const what = item.kind ? `A ${item.kind.toLowerCase()}` : 'A cat';
    return `${what} at ${item.shop}, ${item.address} · ${rating(item)}`;
  }
  const cats = `${item.catCount} cat${item.catCount === 1 ? '' : 's'}`;
  return `A bodega at ${item.address} with ${cats} · ${rating(item)}`;
}

export type PageAddresses = {
  /** The absolute address of this share page (og:url). */
  url: string;
  /** The absolute address of its card (og:image). */
  image: string;
};

export function sharePage(item: ShareItem, product: string, addresses: PageAddresses): string {
  const title = shareTitle(item);
  const description = shareDescription(item);
  const alt = item.primaryFilename ? `Photo of ${item.name}` : `${item.name}, drawn on a ${product} card`;
  const meta = (attribute: 'property' | 'name', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;
  const app = appPath(item);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${title} · ${product}`)}</title>
<meta name="description" content="${escapeHtml(description)}">
<link rel="canonical" href="${escapeHtml(addresses.url)}">
${meta('property', 'og:type', 'website')}
${meta('property', 'og:site_name', product)}
${meta('property', 'og:title', title)}
${meta('property', 'og:description', description)}
${meta('property', 'og:url', addresses.url)}
${meta('property', 'og:image', addresses.image)}
${meta('property', 'og:image:type', 'image/png')}
${meta('property', 'og:image:width', String(CARD_WIDTH))}
${meta('property', 'og:image:height', String(CARD_HEIGHT))}
${meta('property', 'og:image:alt', alt)}
${meta('name', 'twitter:card', 'summary_large_image')}
${meta('name', 'twitter:title', title)}
${meta('name', 'twitter:description', description)}
${meta('name', 'twitter:image', addresses.image)}
${meta('name', 'twitter:image:alt', alt)}
<script src="${REDIRECT_SCRIPT_PATH}" defer></script>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(description)}</p>
<p><a id="open" href="${escapeHtml(app)}">Open ${escapeHtml(item.name)} in ${escapeHtml(product)}</a></p>
</body>
</html>
`;
}

/** The one answer for an unknown, deleted, hidden or malformed share link: it names nothing. */
export function notFoundPage(product: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found · ${escapeHtml(product)}</title>
<meta name="robots" content="noindex">
</head>
<body>
<h1>Not found</h1>
<p>This link does not lead anywhere any more.</p>
<p><a href="/">Go to ${escapeHtml(product)}</a></p>
</body>
</html>
`;
}
