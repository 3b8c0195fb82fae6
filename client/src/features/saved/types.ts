export type { SavedBodega, SavedBodegasPage, SavedCat, SavedCatsPage } from '../../../../contract/lists.ts';
export type SavedKind = 'cats' | 'bodegas';
