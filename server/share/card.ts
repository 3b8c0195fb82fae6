// The preview card of a share link, 1200×630 PNG: the primary photo cover-cropped with the name
// and the shop drawn over it, or, with no photo, a card drawn in the app's colours with a cat's
// silhouette. Text is SVG composited by sharp (librsvg, with fontconfig's fallback fonts for any
// script); it is escaped for XML and cut to fit with an ellipsis.
import sharp from 'sharp';
import { CARD_HEIGHT, CARD_WIDTH } from './page.ts';
import type { ShareItem } from './item.ts';

// The app's colours (client/src/styles/global.css).
const COLORS = {
  bg: '#fdf8f3',
  surfaceMuted: '#f7efe6',
  text: '#2b1d14',
  textMuted: '#6b5647',
  primary: '#c2410c',
  primarySoft: '#ffedd5',
  onPrimary: '#ffffff',
};
const FONT = "'DejaVu Sans', 'Noto Sans CJK SC', 'Noto Sans', 'Liberation Sans', sans-serif";
const MARGIN = 64;

// Characters XML 1.0 does not allow at all (a name with one would make the SVG unreadable), and
// unpaired surrogates.
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- removing control characters is what it is for
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as SVG character data or a double-quoted attribute value. */
export function escapeSvg(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// East Asian wide and full-width characters and pictographs take about a whole em; Latin letters
// in a bold sans about two thirds of one. Only an estimate: the cut errs on the short side.
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1FAFF}\u{20000}-\u{3FFFD}]/u;

function graphemeWidth(grapheme: string): number {
  if (WIDE.test(grapheme)) return 1;
  if (grapheme === ' ') return 0.32;
  if (/^[A-Z0-9MW@]/.test(grapheme)) return 0.74;
  if (/^[il.,;:'!|]/.test(grapheme)) return 0.34;
  return 0.64;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The text as it fits in `maxWidth` pixels at `fontSize`: whole, or cut at a grapheme (never
 * inside a letter and its marks, or an emoji) with an ellipsis.
 */
export function fitText(text: string, fontSize: number, maxWidth: number): string {
  const clean = text.replace(NOT_XML, '').replace(/\s+/g, ' ').trim();
  const budget = maxWidth / fontSize;
  const graphemes = [...segmenter.segment(clean)].map((s) => s.segment);
  let width = 0;
  for (const g of graphemes) width += graphemeWidth(g);
  if (width <= budget) return clean;
  const ellipsis = graphemeWidth('…');
  let kept = '';
  width = 0;
  for (const g of graphemes) {
    const w = graphemeWidth(g);
    if (width + w + ellipsis > budget) break;
    kept += g;
    width += w;
  }
  return `${kept.trimEnd()}…`;
}

function lines(item: ShareItem): { name: string; shop: string } {
  return { name: item.name, shop: item.shop ?? item.address };
}

function brand(product: string, x: number, y: number): string {
  const label = fitText(product, 28, 400);
  return `<g transform="translate(${x} ${y})">
  <rect width="${Math.round(label.length * 17 + 48)}" height="52" rx="26" fill="${COLORS.primary}"/>
  <text x="24" y="35" font-family="${FONT}" font-size="28" font-weight="bold" fill="${COLORS.onPrimary}">${escapeSvg(label)}</text>
</g>`;
}

/** The name and shop over the bottom of a photo, on a shade that keeps them readable. */
function photoOverlay(item: ShareItem, product: string): string {
  const { name, shop } = lines(item);
  const width = CARD_WIDTH - 2 * MARGIN;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}">
<defs><linearGradient id="shade" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#000" stop-opacity="0"/>
  <stop offset="1" stop-color="${COLORS.text}" stop-opacity="0.88"/>
</linearGradient></defs>
<rect x="0" y="${CARD_HEIGHT - 300}" width="${CARD_WIDTH}" height="300" fill="url(#shade)"/>
${brand(product, MARGIN, 48)}
<text x="${MARGIN}" y="${CARD_HEIGHT - 112}" font-family="${FONT}" font-size="72" font-weight="bold" fill="#fff">${escapeSvg(fitText(name, 72, width))}</text>
<text x="${MARGIN}" y="${CARD_HEIGHT - 56}" font-family="${FONT}" font-size="38" fill="#fff" fill-opacity="0.92">${escapeSvg(fitText(shop, 38, width))}</text>
</svg>`;
}

// The cat of the app's icon (client/src/components/Icon.tsx), drawn large.
const CAT_OUTLINE =
  'M12 5c.67 0 1.35.09 2 .26 1.78-2 5.03-2.84 6.42-2.26 1.4.58-.42 7-.42 7 .57 1.07 1 2.24 1 3.44C21 17.9 16.97 21 12 21s-9-3-9-7.56c0-1.25.5-2.4 1-3.44 0 0-1.89-6.42-.5-7 1.39-.58 4.72.23 6.5 2.23A9.04 9.04 0 0 1 12 5Z';
const CAT_FACE = 'M8 14v.5M16 14v.5M11.25 16.25h1.5L12 17l-.75-.75Z';

/** A card without a photo: the app's colours, a cat's silhouette, the name and the shop. */
function drawnCard(item: ShareItem, product: string): string {
  const { name, shop } = lines(item);
  const width = 720 - MARGIN;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}">
<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="${COLORS.bg}"/>
<circle cx="960" cy="330" r="250" fill="${COLORS.primarySoft}"/>
<g transform="translate(768 138) scale(16)" stroke-linecap="round" stroke-linejoin="round">
  <path d="${CAT_OUTLINE}" fill="${COLORS.primary}"/>
  <path d="${CAT_FACE}" fill="none" stroke="${COLORS.primarySoft}" stroke-width="1.2"/>
</g>
<rect y="${CARD_HEIGHT - 18}" width="${CARD_WIDTH}" height="18" fill="${COLORS.primary}"/>
${brand(product, MARGIN, 64)}
<text x="${MARGIN}" y="330" font-family="${FONT}" font-size="68" font-weight="bold" fill="${COLORS.text}">${escapeSvg(fitText(name, 68, width))}</text>
<text x="${MARGIN}" y="400" font-family="${FONT}" font-size="36" fill="${COLORS.textMuted}">${escapeSvg(fitText(shop, 36, width))}</text>
<text x="${MARGIN}" y="${CARD_HEIGHT - 72}" font-family="${FONT}" font-size="26" fill="${COLORS.textMuted}">${escapeSvg(item.type === 'cat' ? 'A bodega cat' : 'A bodega with cats')}</text>
</svg>`;
}

/**
 * Makes the card: over `photo` (the primary photo's bytes) when given, else drawn. A photo sharp
 * cannot read gets the drawn card (and `onPhotoError` hears why) rather than no card.
 */
export async function renderCard(
  item: ShareItem,
  product: string,
  photo: Buffer | null,
  onPhotoError: (error: unknown) => void = () => {},
): Promise<Buffer> {
  if (photo) {
    try {
      return await sharp(photo)
        .rotate()
        .resize(CARD_WIDTH, CARD_HEIGHT, { fit: 'cover', position: 'centre' })
        .composite([{ input: Buffer.from(photoOverlay(item, product)) }])
        .png()
        .toBuffer();
    } catch (error) {
      onPhotoError(error);
    }
  }
  return sharp(Buffer.from(drawnCard(item, product)))
    .png()
    .toBuffer();
}
