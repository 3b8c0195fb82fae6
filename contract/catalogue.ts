// Cats, bodegas and their photos as the API sends them (API.md, Shapes), and the bodies that add
// and edit them.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './common.ts';
import { TEXT_LIMITS } from './text-limits.ts';

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
  /** Present (true) only when moderation hid it: moderators still see it on its page. */
  hidden: Type.Optional(Type.Boolean()),
});
export type Photo = Static<typeof Photo>;

/** What an upload and a primary photo's choice answer: the photo as it now stands. */
export const PhotoAnswer = Type.Object({ photo: Photo });
export type PhotoAnswer = Static<typeof PhotoAnswer>;

// Field order is the order of the JSON the API sends.
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
  /** The primary photo's large variant, or null while it has no ready primary photo. */
  primary_photo: Nullable(Type.String()),
  /** The same photo's small variant, for grids; null with primary_photo. */
  primary_thumb: Nullable(Type.String()),
  created_by: Nullable(Type.Integer()),
  created_at: Type.String(),
  /** Metres from the searched point, in nearest-first search results only. */
  distance: Type.Optional(Type.Number()),
};
export const CatSummary = Type.Object(catSummaryFields);
export type CatSummary = Static<typeof CatSummary>;

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
  primary_photo: catSummaryFields.primary_photo,
  primary_thumb: catSummaryFields.primary_thumb,
  created_by: Nullable(Type.Integer()),
  created_at: Type.String(),
  distance: catSummaryFields.distance,
};
export const BodegaSummary = Type.Object(bodegaSummaryFields);
export type BodegaSummary = Static<typeof BodegaSummary>;

const detail = {
  creator_username: Nullable(Type.String()),
  photos: Type.Array(Photo),
  version: Type.Integer(),
  /** Whether the signed-in caller has saved it (false when signed out). */
  saved: Type.Boolean(),
  /** Present (true) only when moderation hid it: its creator and moderators still see it. */
  hidden: Type.Optional(Type.Boolean()),
};
export const CatDetail = Type.Object({ ...catSummaryFields, ...detail });
export type CatDetail = Static<typeof CatDetail>;
export const BodegaDetail = Type.Object({ ...bodegaSummaryFields, ...detail });
export type BodegaDetail = Static<typeof BodegaDetail>;

export const CatResponse = Type.Object({ cat: CatDetail, bodega: BodegaSummary });
export type CatResponse = Static<typeof CatResponse>;
export const BodegaResponse = Type.Object({ bodega: BodegaDetail, cats: Type.Array(CatSummary) });
export type BodegaResponse = Static<typeof BodegaResponse>;

/** An edit as the live stream reports it: the item's id and every field its editor sets. */
export const CatChange = Type.Pick(CatSummary, [
  'id',
  'name',
  'description',
  'age',
  'breed',
  'sex',
  'personality',
  'color',
  'weight',
  'is_friendly',
]);
export type CatChange = Static<typeof CatChange>;
export const BodegaChange = Type.Pick(BodegaSummary, [
  'id',
  'name',
  'address',
  'latitude',
  'longitude',
  'description',
  'phone',
  'hours',
]);
export type BodegaChange = Static<typeof BodegaChange>;

// maxGraphemes (server/http/validation.ts): characters as a person counts them, see text-limits.ts.
const text = (limit: number) => Type.String({ maxGraphemes: limit });
const required = (limit: number) => Type.String({ minLength: 1, maxGraphemes: limit });
// Both coordinates or neither (null counts as absent): the server checks the pair.
const coordinate = (limit: number) =>
  Type.Optional(Type.Union([Type.Number({ minimum: -limit, maximum: limit }), Type.Null()]));

const CAT_SEXES = ['', 'Male', 'Female', 'Unknown'] as const;
export const CatSex = Type.Union(CAT_SEXES.map((sex) => Type.Literal(sex)));
export type CatSex = Static<typeof CatSex>;

const catFields = {
  description: Type.Optional(text(TEXT_LIMITS.description)),
  age: Type.Optional(text(TEXT_LIMITS.age)),
  breed: Type.Optional(text(TEXT_LIMITS.breed)),
  sex: Type.Optional(CatSex),
  personality: Type.Optional(text(TEXT_LIMITS.personality)),
  color: Type.Optional(text(TEXT_LIMITS.color)),
  weight: Type.Optional(text(TEXT_LIMITS.weight)),
  is_friendly: Type.Optional(Type.Boolean()),
};

/** A new cat, with the name and address of its bodega (found, or added with it). */
export const NewCatBody = Type.Object(
  {
    name: required(TEXT_LIMITS.name),
    bodega_name: required(TEXT_LIMITS.name),
    address: required(TEXT_LIMITS.address),
    ...catFields,
    latitude: coordinate(90),
    longitude: coordinate(180),
  },
  { additionalProperties: false },
);
export type NewCatBody = Static<typeof NewCatBody>;

export const CatEditBody = Type.Object(
  { name: required(TEXT_LIMITS.name), ...catFields },
  { additionalProperties: false },
);
export type CatEditBody = Static<typeof CatEditBody>;

/** A new bodega, or the edit of one. */
export const BodegaBody = Type.Object(
  {
    name: required(TEXT_LIMITS.name),
    address: required(TEXT_LIMITS.address),
    description: Type.Optional(text(TEXT_LIMITS.description)),
    phone: Type.Optional(text(TEXT_LIMITS.phone)),
    hours: Type.Optional(text(TEXT_LIMITS.hours)),
    latitude: coordinate(90),
    longitude: coordinate(180),
  },
  { additionalProperties: false },
);
export type BodegaBody = Static<typeof BodegaBody>;
