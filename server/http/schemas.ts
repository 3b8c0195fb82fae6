// TypeBox schemas of the contract's shapes (API.md), shared by every route module for validation,
// response serialization and the OpenAPI document.
import { Type, type TSchema } from '@sinclair/typebox';

export const ErrorBody = Type.Object(
  { error: Type.String(), code: Type.String(), details: Type.Optional(Type.Unknown()) },
  { $id: 'Error' },
);

/** Standard error responses a route can produce, to spread into `schema.response`. */
export function errors(...codes: (400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503)[]) {
  return Object.fromEntries(codes.map((c) => [c, ErrorBody]));
}

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const Pagination = Type.Object({
  page: Type.Integer(),
  per_page: Type.Integer(),
  total: Type.Integer(),
  pages: Type.Integer(),
});

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
};

export function pagination(total: number, page: number, perPage: number) {
  return { page, per_page: perPage, total, pages: Math.ceil(total / perPage) };
}

/**
 * Ids are whole numbers in 1..2^53-1 (API.md): the range every client can hold exactly in a
 * double and Postgres holds in a bigint. Bodies and queries declare them with `Id`, so anything
 * outside is a 400 before a query is built.
 */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
export const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });

/**
 * An id from a path segment, or null when the text cannot be one. A path that names no possible
 * id names nothing, so callers answer it like any unknown id (404), never a 400 or 500.
 */
export function pathId(raw: string): number | null {
  if (!/^[0-9]{1,16}$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= MAX_ID ? id : null;
}

export const User = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: Type.Optional(Type.String()),
});
export const PublicUser = Type.Object({ id: Type.Integer(), username: Type.String() });

export const Photo = Type.Object({
  id: Type.Integer(),
  filename: Type.String(),
  caption: Type.String(),
  is_primary: Type.Boolean(),
  status: Type.Union([Type.Literal('processing'), Type.Literal('ready'), Type.Literal('failed')]),
  url: Nullable(Type.String()),
  thumb_url: Nullable(Type.String()),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  uploaded_by: Nullable(Type.Integer()),
  created_at: Type.String(),
});

// The thumb variant of `primary_photo`, for grids. Every summary the API sends has it; it is
// optional in the schema only because the live stream's added messages, typed as summaries, are
// built without it (a new item has no photo yet).
const PrimaryThumb = Nullable(Type.String());

const catSummaryFields = {
  id: Type.Integer(),
  name: Type.String(),
  bodega_id: Type.Integer(),
  bodega_name: Type.String(),
  address: Type.String(),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
  description: Type.String(),
  age: Type.String(),
  breed: Type.String(),
  sex: Type.String(),
  personality: Type.String(),
  color: Type.String(),
  weight: Type.String(),
  is_friendly: Type.Boolean(),
  rating: Type.Number(),
  review_count: Type.Integer(),
  primary_photo: Nullable(Type.String()),
  primary_thumb: PrimaryThumb,
  created_by: Nullable(Type.Integer()),
  created_at: Type.String(),
  distance: Type.Optional(Type.Number()),
};
export const CatSummary = Type.Object(catSummaryFields);
export const CatDetail = Type.Object({
  ...catSummaryFields,
  creator_username: Nullable(Type.String()),
  photos: Type.Array(Photo),
  version: Type.Integer(),
  saved: Type.Boolean(),
});

const bodegaSummaryFields = {
  id: Type.Integer(),
  name: Type.String(),
  address: Type.String(),
  latitude: Nullable(Type.Number()),
  longitude: Nullable(Type.Number()),
  description: Type.String(),
  phone: Type.String(),
  hours: Type.String(),
  cat_count: Type.Integer(),
  rating: Type.Number(),
  review_count: Type.Integer(),
  is_verified: Type.Boolean(),
  primary_photo: Nullable(Type.String()),
  primary_thumb: PrimaryThumb,
  created_by: Nullable(Type.Integer()),
  created_at: Type.String(),
  distance: Type.Optional(Type.Number()),
};
export const BodegaSummary = Type.Object(bodegaSummaryFields);
export const BodegaDetail = Type.Object({
  ...bodegaSummaryFields,
  creator_username: Nullable(Type.String()),
  photos: Type.Array(Photo),
  version: Type.Integer(),
  saved: Type.Boolean(),
});

export const Review = Type.Object({
  id: Type.Integer(),
  rating: Type.Integer(),
  comment: Type.String(),
  created_at: Type.String(),
  user: PublicUser,
  cat_id: Nullable(Type.Integer()),
  bodega_id: Nullable(Type.Integer()),
});
