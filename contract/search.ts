// Search answers as the API sends them (API.md): pages of cats and bodegas from the text search and
// nearby, suggestions while typing, and the options of the filters.
import { Type, type Static } from '@sinclair/typebox';
import { BodegaSummary, CatSummary } from './catalogue.ts';
import { SearchPagination } from './common.ts';

/** `GET /api/search/cats`. */
export const CatList = Type.Object({ cats: Type.Array(CatSummary), pagination: SearchPagination });
export type CatList = Static<typeof CatList>;

/** `GET /api/search/bodegas`. */
export const BodegaList = Type.Object({ bodegas: Type.Array(BodegaSummary), pagination: SearchPagination });
export type BodegaList = Static<typeof BodegaList>;

/** `GET /api/search/nearby`: the cats or the bodegas, as `type` asked. */
export const NearbyList = Type.Object({
  cats: Type.Optional(Type.Array(CatSummary)),
  bodegas: Type.Optional(Type.Array(BodegaSummary)),
  pagination: SearchPagination,
});
export type NearbyList = Static<typeof NearbyList>;

export const SuggestionKind = Type.Union([
  Type.Literal('cat'),
  Type.Literal('bodega'),
  Type.Literal('breed'),
  Type.Literal('personality'),
]);
export type SuggestionKind = Static<typeof SuggestionKind>;

/** A cat or bodega (its id, and as `detail` a cat's bodega or a bodega's address), or a label. */
export const Suggestion = Type.Object({
  kind: SuggestionKind,
  label: Type.String(),
  id: Type.Optional(Type.Integer()),
  detail: Type.Optional(Type.String()),
});
export type Suggestion = Static<typeof Suggestion>;

/** `GET /api/search/suggest`. */
export const SuggestionList = Type.Object({ suggestions: Type.Array(Suggestion) });
export type SuggestionList = Static<typeof SuggestionList>;

/** `GET /api/search/filters`: the breeds and personalities the filters offer. */
export const FilterOptions = Type.Object({
  breeds: Type.Array(Type.String()),
  personalities: Type.Array(Type.String()),
});
export type FilterOptions = Static<typeof FilterOptions>;
