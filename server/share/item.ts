// What a share link shows of a cat or bodega: read as a signed-out visitor sees it, since a share
// page is public whoever asks for it. Hidden (the cat's own or its bodega's), deleted and unknown
// items are all null, so the page and the card cannot tell them apart.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import { selectBodegaSummaries, selectCatSummaries } from '../catalogue/index.ts';

export type ShareItem = {
  type: TargetType;
  id: number;
  name: string;
  /** The shop: a cat's bodega; a bodega is its own shop, so null. */
  shop: string | null;
  address: string;
  /** A cat's breed or colour ("A tabby"), or a bodega's cat count; '' when unknown. */
  kind: string;
  catCount: number;
  rating: number;
  reviewCount: number;
  /** The ready, unhidden primary photo's file name (its variants' keys derive from it), or null. */
  primaryFilename: string | null;
};

/** A path's id: a whole number in 1..2^53-1, written without sign or leading zeros; else null. */
export function shareId(raw: string): number | null {
  if (!/^[1-9][0-9]{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

export async function findShareItem(db: Kysely<DB>, type: TargetType, id: number): Promise<ShareItem | null> {
  if (type === 'cat') {
    const row = await selectCatSummaries(db).where('cats.id', '=', id).executeTakeFirst();
    if (!row) return null;
    return {
      type,
      id,
      name: row.name,
      shop: row.bodega_name,
      address: row.address,
      kind: (row.breed || row.color || '').trim(),
      catCount: 0,
      rating: Number(row.rating),
      reviewCount: Number(row.review_count),
      primaryFilename: row.primary_filename,
    };
  }
  const row = await selectBodegaSummaries(db).where('bodegas.id', '=', id).executeTakeFirst();
  if (!row) return null;
  return {
    type,
    id,
    name: row.name,
    shop: null,
    address: row.address,
    kind: '',
    catCount: Number(row.cat_count),
    rating: Number(row.rating),
    reviewCount: Number(row.review_count),
    primaryFilename: row.primary_filename,
  };
}

/**
 * Bumped when the card's drawing changes, so every card made by an older drawing is made again.
 */
const CARD_DRAWING = 1;

/**
 * The version of an item's card: a hash of everything drawn on it (the name, the shop, the
 * address, which primary photo) and of the drawing itself. A rename or a new primary photo gives a
 * new version, and so a new card; a new review does not (the card shows no rating).
 */
export function cardVersion(item: ShareItem): string {
  const drawn = [CARD_DRAWING, item.type, item.id, item.name, item.shop, item.address, item.primaryFilename];
  return createHash('sha256').update(JSON.stringify(drawn)).digest('base64url').slice(0, 22);
}
