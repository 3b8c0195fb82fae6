// What the cat and bodega features share of their pages: the page's frame, its hero and quick
// actions, its photos and saved flag, and its item kept current by the live stream. (Their edit
// screens share features/item-edit.)
export { ItemDetailLayout } from './components/ItemDetailLayout.tsx';
export { ItemHero } from './components/ItemHero.tsx';
export { ItemQuickActions } from './components/ItemQuickActions.tsx';
export { useItemPage } from './hooks/use-item-page.ts';
export { useLiveDetail, type DetailState } from './hooks/use-live-detail.ts';
