import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SEARCH_STATE,
  parseSearchState,
  serializeSearchState,
  type SearchState,
} from '../../../../client/src/features/search/model/search-state.ts';

const rating = fc.integer({ min: 0, max: 10 }).map((n) => n / 2);
const ratingRange = fc.tuple(rating, rating).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
const count = fc.integer({ min: 0, max: 100 });
const countRange = fc.tuple(count, count).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
const text = fc.string({ maxLength: 30 });
/** Degrees as the URL keeps them (five decimals). */
const degrees = (limit: number) => fc.integer({ min: -limit * 1e5, max: limit * 1e5 }).map((n) => n / 1e5);
const span = (limit: number) =>
  fc
    .tuple(degrees(limit), degrees(limit))
    .filter(([a, b]) => a !== b)
    .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const);
const area = fc.option(
  fc.tuple(span(180), span(90)).map(([[west, east], [south, north]]) => ({ west, south, east, north })),
);

const searchState: fc.Arbitrary<SearchState> = fc.record({
  q: text.map((s) => s.trim()),
  tab: fc.constantFrom('cats' as const, 'bodegas' as const),
  cat: fc
    .record({
      breed: text,
      personality: text,
      friendliness: fc.constantFrom('all' as const, 'friendly' as const, 'not_friendly' as const),
      ratings: ratingRange,
    })
    .map(({ ratings, ...rest }) => ({ ...rest, minRating: ratings[0], maxRating: ratings[1] })),
  bodega: fc
    .record({ counts: countRange, ratings: ratingRange, verifiedOnly: fc.boolean() })
    .map(({ counts, ratings, verifiedOnly }) => ({
      minCats: counts[0],
      maxCats: counts[1],
      minRating: ratings[0],
      maxRating: ratings[1],
      verifiedOnly,
    })),
  area,
});

/** What the browser does with the search part of a hash URL. */
function throughUrl(state: SearchState): SearchState {
  const url = new URL(`http://localhost/#/search?${serializeSearchState(state).toString()}`);
  const hashQuery = url.hash.slice(url.hash.indexOf('?') + 1);
  return parseSearchState(new URLSearchParams(hashQuery));
}

describe('search state in the URL', () => {
  it('survives a round trip through the URL for any search', () => {
    fc.assert(
      fc.property(searchState, (state) => {
        expect(throughUrl(state)).toEqual(state);
      }),
    );
  });

  it('leaves defaults out of the URL', () => {
    expect(serializeSearchState(DEFAULT_SEARCH_STATE).toString()).toBe('');
    expect(parseSearchState(new URLSearchParams(''))).toEqual(DEFAULT_SEARCH_STATE);
  });

  it('writes a shared search as short readable parameters', () => {
    const state: SearchState = {
      ...DEFAULT_SEARCH_STATE,
      q: 'tabby cat',
      tab: 'bodegas',
      bodega: { ...DEFAULT_SEARCH_STATE.bodega, minCats: 2, verifiedOnly: true },
    };
    expect(serializeSearchState(state).toString()).toBe('q=tabby+cat&tab=bodegas&min_cats=2&verified=true');
  });

  it('falls back to defaults for malformed or out-of-range values', () => {
    const state = parseSearchState(
      new URLSearchParams('tab=dogs&min_rating=abc&max_rating=9&friendly=maybe&min_cats=-4&verified=yes'),
    );
    expect(state.tab).toBe('cats');
    expect(state.cat.minRating).toBe(0);
    expect(state.cat.maxRating).toBe(5);
    expect(state.cat.friendliness).toBe('all');
    expect(state.bodega.minCats).toBe(0);
    expect(state.bodega.verifiedOnly).toBe(false);
  });

  it('snaps ratings to half stars and puts a reversed range in order', () => {
    const state = parseSearchState(new URLSearchParams('min_rating=4.3&max_rating=1.2'));
    expect(state.cat.minRating).toBe(1);
    expect(state.cat.maxRating).toBe(4.5);
  });
});
