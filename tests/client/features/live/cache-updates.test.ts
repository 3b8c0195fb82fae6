import type { InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { applyLiveMessage as applyToCache } from '../../../../client/src/features/live/cache-updates.ts';
import type { LiveMessage } from '../../../../client/src/features/live/types.ts';
import { combinePages, type SearchResults } from '../../../../client/src/features/search/model/results.ts';
import type { BodegaSummary, CatSummary } from '../../../../client/src/lib/catalogue.ts';
import { createQueryClient } from '../../../../client/src/lib/query-client.ts';
import { queryKeys } from '../../../../client/src/lib/query-keys.ts';

const searchKey = queryKeys.search({ path: '/api/search/cats', query: { per_page: '20' } });

/** A cached search holding `pages`, after one live message. */
function appliedToPages(pages: SearchResults[], message: LiveMessage): SearchResults[] {
  const client = createQueryClient();
  client.setQueryData<InfiniteData<SearchResults>>(searchKey, {
    pages,
    pageParams: pages.map((p) => p.page),
  });
  applyToCache(client, message);
  return client.getQueryData<InfiniteData<SearchResults>>(searchKey)!.pages;
}

const applyLiveMessage = (results: SearchResults, message: LiveMessage) =>
  appliedToPages([results], message)[0]!;

const cat = (id: number, bodega_id = 10): CatSummary => ({
  id,
  name: `Cat ${id}`,
  bodega_id,
  bodega_name: 'Corner Deli',
  address: '1 Main St',
  latitude: 40.7,
  longitude: -73.9,
  description: '',
  age: '',
  breed: '',
  sex: '',
  personality: '',
  color: '',
  weight: '',
  is_friendly: true,
  rating: 0,
  review_count: 0,
  primary_photo: null,
  primary_thumb: null,
  created_by: 1,
  created_at: '2026-11-21T00:00:00.000Z',
});

const bodega = (id: number): BodegaSummary => ({
  id,
  name: `Bodega ${id}`,
  address: '1 Main St',
  latitude: 40.7,
  longitude: -73.9,
  description: '',
  phone: '',
  hours: '',
  cat_count: 1,
  rating: 0,
  review_count: 0,
  is_verified: false,
  primary_photo: null,
  primary_thumb: null,
  created_by: 1,
  created_at: '2026-11-21T00:00:00.000Z',
});

const meta = { cursor: '1-1', at: '2026-11-21T00:00:00.000Z' };

describe('live updates of cached search results', () => {
  const cats: SearchResults = {
    kind: 'cats',
    items: [cat(1), cat(2)],
    total: 2,
    totalExact: true,
    page: 1,
    pages: 1,
  };
  const bodegas: SearchResults = {
    kind: 'bodegas',
    items: [bodega(10)],
    total: 1,
    totalExact: true,
    page: 1,
    pages: 1,
  };

  it("updates a visible cat's rating and review count in place", () => {
    const next = applyLiveMessage(cats, {
      type: 'rating.updated',
      ...meta,
      data: { target_type: 'cat', target_id: 2, rating: 4.5, review_count: 3 },
    });
    expect(next.items[1]).toMatchObject({ id: 2, rating: 4.5, review_count: 3 });
    expect(next.items[0]).toBe(cats.items[0]);
  });

  it('ignores events about things not on screen', () => {
    const message = {
      type: 'rating.updated' as const,
      ...meta,
      data: { target_type: 'cat' as const, target_id: 99, rating: 1, review_count: 1 },
    };
    expect(applyLiveMessage(cats, message)).toBe(cats);
  });

  it('drops a deleted cat and counts one fewer', () => {
    const next = applyLiveMessage(cats, {
      type: 'cat.deleted',
      ...meta,
      data: { id: 1, bodega_id: 10, latitude: null, longitude: null },
    });
    expect(next.items.map((c) => c.id)).toEqual([2]);
    expect(next.total).toBe(1);
  });

  it("counts a bodega's new and deleted cats", () => {
    const added = applyLiveMessage(bodegas, { type: 'cat.added', ...meta, data: cat(3, 10) });
    expect(added.items[0]).toMatchObject({ cat_count: 2 });
    const removed = applyLiveMessage(added, {
      type: 'cat.deleted',
      ...meta,
      data: { id: 3, bodega_id: 10, latitude: null, longitude: null },
    });
    expect(removed.items[0]).toMatchObject({ cat_count: 1 });
  });

  it("updates a bodega's rating in place", () => {
    const next = applyLiveMessage(bodegas, {
      type: 'rating.updated',
      ...meta,
      data: { target_type: 'bodega', target_id: 10, rating: 3, review_count: 2 },
    });
    expect(next.items[0]).toMatchObject({ rating: 3, review_count: 2 });
  });

  it('drops a deleted cat from whichever page lists it, and every page counts one fewer', () => {
    const first: SearchResults = {
      kind: 'cats',
      items: [cat(1)],
      total: 2,
      totalExact: true,
      page: 1,
      pages: 2,
    };
    const second: SearchResults = {
      kind: 'cats',
      items: [cat(2)],
      total: 2,
      totalExact: true,
      page: 2,
      pages: 2,
    };
    const pages = appliedToPages([first, second], {
      type: 'cat.deleted',
      ...meta,
      data: { id: 1, bodega_id: 10, latitude: null, longitude: null },
    });
    expect(combinePages(pages)).toMatchObject({ items: [{ id: 2 }], total: 1, page: 2 });
  });
});

describe('the result list of the pages loaded', () => {
  it('lists each result once, with the newest page counts', () => {
    const first: SearchResults = {
      kind: 'cats',
      items: [cat(1), cat(2)],
      total: 3,
      totalExact: true,
      page: 1,
      pages: 2,
    };
    const second: SearchResults = {
      kind: 'cats',
      items: [cat(2), cat(3)],
      total: 4,
      totalExact: false,
      page: 2,
      pages: 2,
    };
    const combined = combinePages([first, second]);
    expect(combined?.items.map((c) => c.id)).toEqual([1, 2, 3]);
    expect(combined).toMatchObject({ total: 4, totalExact: false, page: 2, pages: 2 });
    expect(combinePages([])).toBeNull();
  });
});
