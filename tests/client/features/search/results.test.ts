import { describe, expect, it } from 'vitest';
import {
  applyLiveMessage,
  type SearchResults,
} from '../../../../client/src/features/search/model/results.ts';
import type { BodegaSummary, CatSummary } from '../../../../client/src/lib/catalogue.ts';

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

describe('live updates of the result list', () => {
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
    const next = applyLiveMessage(cats, { type: 'cat.deleted', ...meta, data: { id: 1, bodega_id: 10 } });
    expect(next.items.map((c) => c.id)).toEqual([2]);
    expect(next.total).toBe(1);
  });

  it("counts a bodega's new and deleted cats", () => {
    const added = applyLiveMessage(bodegas, { type: 'cat.added', ...meta, data: cat(3, 10) });
    expect(added.items[0]).toMatchObject({ cat_count: 2 });
    const removed = applyLiveMessage(added, { type: 'cat.deleted', ...meta, data: { id: 3, bodega_id: 10 } });
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
});
