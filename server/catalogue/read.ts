// Read side of the catalogue: the summary shapes of API.md and the queries that feed them.
// Search, saved lists and detail pages all build on these selects, so every list speaks the same
// shape. Rows never leave this module unmapped.
import { sql, type Expression, type Kysely, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import type { BodegaSummary, CatSummary } from '../../contract/catalogue.ts';
import { photoUrl } from '../photos/index.ts';

const CAT_COLUMNS = [
  'cats.id',
  'cats.name',
  'cats.bodega_id',
  'cats.bodega_name',
  'cats.address',
  'cats.latitude',
  'cats.longitude',
  'cats.description',
  'cats.age',
  'cats.breed',
  'cats.sex',
  'cats.personality',
  'cats.color',
  'cats.weight',
  'cats.is_friendly',
  'cats.rating',
  'cats.review_count',
  'cats.created_by',
  'cats.created_at',
] as const;

const BODEGA_COLUMNS = [
  'bodegas.id',
  'bodegas.name',
  'bodegas.address',
  'bodegas.latitude',
  'bodegas.longitude',
  'bodegas.description',
  'bodegas.phone',
  'bodegas.hours',
  'bodegas.cat_count',
  'bodegas.rating',
  'bodegas.review_count',
  'bodegas.is_verified',
  'bodegas.created_by',
  'bodegas.created_at',
] as const;

/**
 * What may be shown to anyone: moderation has not hidden it (a cat is hidden with its bodega too;
 * see migration 20261126_0101). Every public list and search filters on this; only a detail page
 * shows hidden content, to its creator and to moderators.
 */
export function visible(table: 'cats' | 'bodegas'): Expression<SqlBool> {
  return sql<boolean>`not ${sql.ref(`${table}.hidden`)}`;
}

/** Which rows a summary select returns: the visible ones, unless a detail asks for any. */
export type Visibility = { withHidden?: boolean };

/** The primary photo's file, if it is ready and not hidden. */
function primaryFilename(type: TargetType) {
  const table = type === 'cat' ? sql.ref('cats.id') : sql.ref('bodegas.id');
  return sql<string | null>`(
    select p.filename from photos p
    where p.target_type = ${type} and p.target_id = ${table} and p.is_primary and p.status = 'ready'
      and not p.hidden)`.as('primary_filename');
}

/** Cats with everything a CatSummary needs. Add where/order/limit, then map with toCatSummary. */
export function selectCatSummaries(db: Kysely<DB>, options: Visibility = {}) {
  const query = db.selectFrom('cats').select(CAT_COLUMNS).select(primaryFilename('cat'));
  return options.withHidden ? query : query.where(visible('cats'));
}

/** Bodegas with everything a BodegaSummary needs. Map with toBodegaSummary. */
export function selectBodegaSummaries(db: Kysely<DB>, options: Visibility = {}) {
  const query = db.selectFrom('bodegas').select(BODEGA_COLUMNS).select(primaryFilename('bodega'));
  return options.withHidden ? query : query.where(visible('bodegas'));
}

type RowOf<Q> = Q extends SelectQueryBuilder<DB, infer _Tables, infer O> ? O : never;
export type CatSummaryRow = RowOf<ReturnType<typeof selectCatSummaries>>;
export type BodegaSummaryRow = RowOf<ReturnType<typeof selectBodegaSummaries>>;

export function toIso(value: Date | string): string {
  return new Date(value).toISOString();
}

/** Both variants of the primary photo (the large one for pages, the thumb for grids), or nulls. */
export function primaryPhotoUrls(
  type: TargetType,
  filename: string | null,
): { primary_photo: string | null; primary_thumb: string | null } {
  if (!filename) return { primary_photo: null, primary_thumb: null };
  return {
    primary_photo: photoUrl(type, filename, 'large'),
    primary_thumb: photoUrl(type, filename, 'thumb'),
  };
}

export function toCatSummary(row: CatSummaryRow): CatSummary {
  return {
    id: Number(row.id),
    name: row.name,
    bodega_id: Number(row.bodega_id),
    bodega_name: row.bodega_name,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    description: row.description,
    age: row.age,
    breed: row.breed,
    sex: row.sex,
    personality: row.personality,
    color: row.color,
    weight: row.weight,
    is_friendly: row.is_friendly,
    rating: Number(row.rating),
    review_count: Number(row.review_count),
    ...primaryPhotoUrls('cat', row.primary_filename),
    created_by: row.created_by === null ? null : Number(row.created_by),
    created_at: toIso(row.created_at),
  };
}

export function toBodegaSummary(row: BodegaSummaryRow): BodegaSummary {
  return {
    id: Number(row.id),
    name: row.name,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    description: row.description,
    phone: row.phone,
    hours: row.hours,
    cat_count: Number(row.cat_count),
    rating: Number(row.rating),
    review_count: Number(row.review_count),
    is_verified: row.is_verified,
    ...primaryPhotoUrls('bodega', row.primary_filename),
    created_by: row.created_by === null ? null : Number(row.created_by),
    created_at: toIso(row.created_at),
  };
}

export async function findCatSummary(db: Kysely<DB>, id: number): Promise<CatSummary | null> {
  const row = await selectCatSummaries(db).where('cats.id', '=', id).executeTakeFirst();
  return row ? toCatSummary(row) : null;
}

export async function findBodegaSummary(
  db: Kysely<DB>,
  id: number,
  options: Visibility = {},
): Promise<BodegaSummary | null> {
  const row = await selectBodegaSummaries(db, options).where('bodegas.id', '=', id).executeTakeFirst();
  return row ? toBodegaSummary(row) : null;
}
