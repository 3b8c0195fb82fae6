// Read side of the catalogue: the summary shapes of API.md and the queries that feed them.
// Search, saved lists and detail pages all build on these selects, so every list speaks the same
// shape. Rows never leave this module unmapped.
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import type { BodegaSummary, CatSummary } from '../../contract/catalogue.ts';
import { photoUrl } from '../photos/urls.ts';

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

/** Cats with everything a CatSummary needs. Add where/order/limit, then map with toCatSummary. */
export function selectCatSummaries(db: Kysely<DB>) {
  return db
    .selectFrom('cats')
    .select(CAT_COLUMNS)
    .select(
      sql<
        string | null
      >`(select p.filename from photos p where p.target_type = 'cat' and p.target_id = cats.id and p.is_primary and p.status = 'ready')`.as(
        'primary_filename',
      ),
    );
}

/** Bodegas with everything a BodegaSummary needs. Map with toBodegaSummary. */
export function selectBodegaSummaries(db: Kysely<DB>) {
  return db
    .selectFrom('bodegas')
    .select(BODEGA_COLUMNS)
    .select(
      sql<
        string | null
      >`(select p.filename from photos p where p.target_type = 'bodega' and p.target_id = bodegas.id and p.is_primary and p.status = 'ready')`.as(
        'primary_filename',
      ),
    );
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

export async function findBodegaSummary(db: Kysely<DB>, id: number): Promise<BodegaSummary | null> {
  const row = await selectBodegaSummaries(db).where('bodegas.id', '=', id).executeTakeFirst();
  return row ? toBodegaSummary(row) : null;
}
