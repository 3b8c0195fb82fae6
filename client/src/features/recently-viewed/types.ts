export type { RecentlyViewedPage, ViewedItem } from '../../../../contract/lists.ts';
