import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BODEGA_FILTERS,
  DEFAULT_CAT_FILTERS,
  bodegaFilterChips,
  bodegaFilterParams,
  catFilterChips,
  catFilterParams,
  withoutCatFilter,
} from '../../../../client/src/features/search/model/filters.ts';
import { searchRequest } from '../../../../client/src/features/search/model/search-request.ts';
import { DEFAULT_SEARCH_STATE } from '../../../../client/src/features/search/model/search-state.ts';

describe('filter parameters', () => {
  it('sends no cat filter while every filter is at its default', () => {
    expect(catFilterParams(DEFAULT_CAT_FILTERS)).toEqual({});
    expect(catFilterChips(DEFAULT_CAT_FILTERS)).toEqual([]);
  });

  it('sends no bodega filter while every filter is at its default', () => {
    expect(bodegaFilterParams(DEFAULT_BODEGA_FILTERS)).toEqual({});
    expect(bodegaFilterChips(DEFAULT_BODEGA_FILTERS)).toEqual([]);
  });

  it('sends exactly the cat filters that differ from their defaults', () => {
    expect(catFilterParams({ ...DEFAULT_CAT_FILTERS, breed: 'Tabby', minRating: 3.5 })).toEqual({
      breed: 'Tabby',
      min_rating: '3.5',
    });
    expect(catFilterParams({ ...DEFAULT_CAT_FILTERS, friendliness: 'friendly', maxRating: 4 })).toEqual({
      is_friendly: 'true',
      max_rating: '4',
    });
    expect(
      catFilterParams({ ...DEFAULT_CAT_FILTERS, friendliness: 'not_friendly', personality: 'Lazy' }),
    ).toEqual({
      personality: 'Lazy',
      is_friendly: 'false',
    });
  });

  it('sends exactly the bodega filters that differ from their defaults', () => {
    expect(bodegaFilterParams({ ...DEFAULT_BODEGA_FILTERS, minCats: 2, verifiedOnly: true })).toEqual({
      min_cats: '2',
      verified_only: 'true',
    });
    expect(bodegaFilterParams({ ...DEFAULT_BODEGA_FILTERS, maxCats: 20, minRating: 1 })).toEqual({
      max_cats: '20',
      min_rating: '1',
    });
  });

  it('removes one chip by putting that filter back to its default', () => {
    const filters = { ...DEFAULT_CAT_FILTERS, breed: 'Tabby', minRating: 2 };
    expect(catFilterChips(filters).map((c) => c.id)).toEqual(['breed', 'minRating']);
    expect(withoutCatFilter(filters, 'breed')).toEqual({ ...DEFAULT_CAT_FILTERS, minRating: 2 });
  });
});

describe('which search a state runs', () => {
  it('uses the text search of the active tab without a position', () => {
    const state = { ...DEFAULT_SEARCH_STATE, q: ' tabby ', cat: { ...DEFAULT_CAT_FILTERS, breed: 'Tabby' } };
    expect(searchRequest(state, null)).toEqual({
      path: '/api/search/cats',
      query: { q: 'tabby', breed: 'Tabby', per_page: '20' },
    });
    expect(searchRequest({ ...DEFAULT_SEARCH_STATE, tab: 'bodegas' }, null, 3)).toEqual({
      path: '/api/search/bodegas',
      query: { page: '3', per_page: '20' },
    });
  });

  it('uses the nearby search with a 10 km radius once a position is known', () => {
    const state = {
      ...DEFAULT_SEARCH_STATE,
      tab: 'bodegas' as const,
      bodega: { ...DEFAULT_BODEGA_FILTERS, verifiedOnly: true },
    };
    expect(searchRequest(state, { lat: 40.75, lng: -73.98 })).toEqual({
      path: '/api/search/nearby',
      query: {
        lat: '40.75',
        lng: '-73.98',
        radius: '10',
        type: 'bodegas',
        verified_only: 'true',
        per_page: '20',
      },
    });
  });

  it("only sends the active tab's filters", () => {
    const state = {
      ...DEFAULT_SEARCH_STATE,
      cat: { ...DEFAULT_CAT_FILTERS, breed: 'Tabby' },
      bodega: { ...DEFAULT_BODEGA_FILTERS, minCats: 3 },
    };
    expect(searchRequest(state, null).query).not.toHaveProperty('min_cats');
    expect(searchRequest({ ...state, tab: 'bodegas' }, null).query).not.toHaveProperty('breed');
  });
});
