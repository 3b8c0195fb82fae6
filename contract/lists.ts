// The signed-in reader's own lists (API.md, User lists): saved cats and bodegas, and recently
// viewed items.
import { Type, type Static } from '@sinclair/typebox';
import { BodegaSummary, CatSummary } from './catalogue.ts';
import { Pagination } from './common.ts';

export const SavedCat = Type.Object({ ...CatSummary.properties, saved_at: Type.String() });
export type SavedCat = Static<typeof SavedCat>;

export const SavedBodega = Type.Object({ ...BodegaSummary.properties, saved_at: Type.String() });
export type SavedBodega = Static<typeof SavedBodega>;

/** What saving and unsaving answer: whether the item is saved now. */
export const SaveResult = Type.Object({ saved: Type.Boolean() });
export type SaveResult = Static<typeof SaveResult>;

export const SavedCatsPage = Type.Object({ saved_cats: Type.Array(SavedCat), pagination: Pagination });
export type SavedCatsPage = Static<typeof SavedCatsPage>;

export const SavedBodegasPage = Type.Object({
  saved_bodegas: Type.Array(SavedBodega),
  pagination: Pagination,
});
export type SavedBodegasPage = Static<typeof SavedBodegasPage>;

/** A cat (with its bodega's name) or a bodega, as the reader last opened it. */
export const ViewedItem = Type.Object({
  type: Type.Union([Type.Literal('cat'), Type.Literal('bodega')]),
  id: Type.Integer(),
  name: Type.String(),
  bodega_name: Type.Optional(Type.String()),
  address: Type.String(),
  description: Type.String(),
  rating: Type.Number(),
  review_count: Type.Integer(),
  primary_photo: Type.Union([Type.String(), Type.Null()]),
  primary_thumb: Type.Union([Type.String(), Type.Null()]),
  viewed_at: Type.String(),
});
export type ViewedItem = Static<typeof ViewedItem>;

export const RecentlyViewedPage = Type.Object({
  recently_viewed: Type.Array(ViewedItem),
  pagination: Pagination,
});
export type RecentlyViewedPage = Static<typeof RecentlyViewedPage>;
