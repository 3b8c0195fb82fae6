import type { BodegaSummary, CatSummary, Pagination } from '../../lib/catalogue.ts';

export type SavedCat = CatSummary & { saved_at: string };
export type SavedBodega = BodegaSummary & { saved_at: string };
export type SavedCatsPage = { saved_cats: SavedCat[]; pagination: Pagination };
export type SavedBodegasPage = { saved_bodegas: SavedBodega[]; pagination: Pagination };
export type SavedKind = 'cats' | 'bodegas';
