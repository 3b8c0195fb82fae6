// Search query strings: their schemas (validated and coerced by Fastify) and the checks that span
// several fields. Every filter of API.md is declared here once and shared by all endpoints.
import { Type, type Static } from '@sinclair/typebox';
import type { Box } from '../../contract/map-grid.ts';
import { Invalid } from '../errors.ts';
import { PageQuery } from '../http/schemas.ts';

export const Q_MAX = 200;

const TrueFalse = Type.Union([Type.Literal('true'), Type.Literal('false')]);
const Rating = Type.Number({ minimum: 0, maximum: 5 });
const CatCount = Type.Integer({ minimum: 0, maximum: 100 });
const Label = Type.String({ maxLength: 100 });

const Latitude = Type.Number({ minimum: -90, maximum: 90 });
const Longitude = Type.Number({ minimum: -180, maximum: 180 });
/** A map view's box in degrees (west < east, south < north; checked by boxOf). */
export const BoxFields = { west: Longitude, south: Latitude, east: Longitude, north: Latitude };
const optionalBoxFields = {
  west: Type.Optional(Longitude),
  south: Type.Optional(Latitude),
  east: Type.Optional(Longitude),
  north: Type.Optional(Latitude),
};

const textFields = { q: Type.Optional(Type.String({ maxLength: Q_MAX })) };
const ratingFields = { min_rating: Type.Optional(Rating), max_rating: Type.Optional(Rating) };
const catFields = {
  breed: Type.Optional(Label),
  personality: Type.Optional(Label),
  is_friendly: Type.Optional(TrueFalse),
};
const bodegaFields = {
  min_cats: Type.Optional(CatCount),
  max_cats: Type.Optional(CatCount),
  verified_only: Type.Optional(TrueFalse),
};

export const CatSearchQuery = Type.Object({
  ...textFields,
  ...catFields,
  ...ratingFields,
  ...optionalBoxFields,
  ...PageQuery,
});
export const BodegaSearchQuery = Type.Object({
  ...textFields,
  ...bodegaFields,
  ...ratingFields,
  ...optionalBoxFields,
  ...PageQuery,
});
/** A type to search (cats by default) and every filter of either type, for nearby and the map. */
export const EitherTypeFields = {
  type: Type.Optional(Type.Union([Type.Literal('cats'), Type.Literal('bodegas')])),
  ...textFields,
  ...catFields,
  ...bodegaFields,
  ...ratingFields,
};
export const NearbyQuery = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
  radius: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 50 })),
  ...EitherTypeFields,
  ...PageQuery,
});

export type CatSearchQuery = Static<typeof CatSearchQuery>;
export type BodegaSearchQuery = Static<typeof BodegaSearchQuery>;
export type NearbyQuery = Static<typeof NearbyQuery>;

export type RatingRange = { min: number | null; max: number | null };
export type CatFilters = {
  breed: string | null;
  personality: string | null;
  isFriendly: boolean | null;
  rating: RatingRange;
};
export type BodegaFilters = {
  catCount: { min: number | null; max: number | null };
  verifiedOnly: boolean;
  rating: RatingRange;
};
export type Page = { page: number; perPage: number };

function range(min: number | undefined, max: number | undefined, minField: string, maxField: string) {
  if (min !== undefined && max !== undefined && min > max) {
    const message = `must not be greater than ${maxField}`;
    throw new Invalid(`${minField} ${message}`, { [minField]: message });
  }
  return { min: min ?? null, max: max ?? null };
}

/** An empty or blank label means "any" (the client's "All Breeds" option). */
function label(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

export function catFiltersOf(query: Omit<CatSearchQuery, 'page' | 'per_page'>): CatFilters {
  return {
    breed: label(query.breed),
    personality: label(query.personality),
    isFriendly: query.is_friendly === undefined ? null : query.is_friendly === 'true',
    rating: range(query.min_rating, query.max_rating, 'min_rating', 'max_rating'),
  };
}

export function bodegaFiltersOf(query: Omit<BodegaSearchQuery, 'page' | 'per_page'>): BodegaFilters {
  return {
    catCount: range(query.min_cats, query.max_cats, 'min_cats', 'max_cats'),
    verifiedOnly: query.verified_only === 'true',
    rating: range(query.min_rating, query.max_rating, 'min_rating', 'max_rating'),
  };
}

const BOX_SIDES = ['west', 'south', 'east', 'north'] as const;

/** A box whose sides are in order; 400 otherwise. */
export function boxOf(query: Box): Box {
  const { west, south, east, north } = query;
  if (west >= east) throw new Invalid('west must be less than east', { west: 'must be less than east' });
  if (south >= north)
    throw new Invalid('south must be less than north', { south: 'must be less than north' });
  return { west, south, east, north };
}

/** The search's box: all four sides or none (null); some of them only is a 400. */
export function optionalBoxOf(query: Partial<Box>): Box | null {
  const missing = BOX_SIDES.filter((side) => query[side] === undefined);
  if (missing.length === BOX_SIDES.length) return null;
  if (missing.length > 0) {
    const message = 'is required with the other sides of the box';
    throw new Invalid(`${missing[0]} ${message}`, Object.fromEntries(missing.map((side) => [side, message])));
  }
  return boxOf(query as Box);
}

export function pageOf(query: { page?: number; per_page?: number }): Page {
  return { page: query.page ?? 1, perPage: query.per_page ?? 20 };
}

const BODEGA_ONLY = ['min_cats', 'max_cats', 'verified_only'] as const;
const CAT_ONLY = ['breed', 'personality', 'is_friendly'] as const;

/** A filter of the other type would silently do nothing on nearby, so it is refused instead. */
export function rejectFiltersOfOtherType(
  query: Partial<Record<(typeof BODEGA_ONLY | typeof CAT_ONLY)[number], unknown>>,
  type: 'cats' | 'bodegas',
): void {
  const foreign = type === 'cats' ? BODEGA_ONLY : CAT_ONLY;
  const given = foreign.filter((field) => query[field] !== undefined);
  if (given.length === 0) return;
  const message = `only applies when type is ${type === 'cats' ? 'bodegas' : 'cats'}`;
  throw new Invalid(`${given[0]} ${message}`, Object.fromEntries(given.map((f) => [f, message])));
}
