import type { Pagination } from '../../lib/catalogue.ts';

export type ViewedItem = {
  type: 'cat' | 'bodega';
  id: number;
  name: string;
  bodega_name?: string;
  address: string;
  description: string;
  rating: number;
  review_count: number;
  primary_photo: string | null;
  primary_thumb: string | null;
  viewed_at: string;
};

export type RecentlyViewedPage = { recently_viewed: ViewedItem[]; pagination: Pagination };
