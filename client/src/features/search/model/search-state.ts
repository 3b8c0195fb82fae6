// The search a URL describes (query, tab, filters), so a search can be shared and survives a
// reload. Anything missing or malformed in the URL falls back to its default.
import {
  CAT_COUNT_RANGE,
  DEFAULT_BODEGA_FILTERS,
  DEFAULT_CAT_FILTERS,
  RATING_RANGE,
  type BodegaFilters,
  type CatFilters,
  type Friendliness,
} from './filters.ts';
import { formatArea, parseArea, type Box } from './area.ts';

export type SearchTab = 'cats' | 'bodegas';

export type SearchState = {
  q: string;
  tab: SearchTab;
  cat: CatFilters;
  bodega: BodegaFilters;
  /** The list limited to a map box ("Search this area"). */
  area: Box | null;
};

export const DEFAULT_SEARCH_STATE: SearchState = Object.freeze({
  q: '',
  tab: 'cats',
  cat: DEFAULT_CAT_FILTERS,
  bodega: DEFAULT_BODEGA_FILTERS,
  area: null,
});

function number(raw: string | null, min: number, max: number, step: number, fallback: number): number {
  if (raw === null || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value)) return fallback;
  const snapped = Math.round(value / step) * step;
  return Math.min(max, Math.max(min, snapped));
}

function rating(raw: string | null, fallback: number): number {
  return number(raw, RATING_RANGE.min, RATING_RANGE.max, RATING_RANGE.step, fallback);
}

function catCount(raw: string | null, fallback: number): number {
  return number(raw, CAT_COUNT_RANGE.min, CAT_COUNT_RANGE.max, CAT_COUNT_RANGE.step, fallback);
}

function friendliness(raw: string | null): Friendliness {
  return raw === 'friendly' || raw === 'not_friendly' ? raw : 'all';
}

function ordered<T extends { min: number; max: number }>(range: T): T {
  return range.min <= range.max ? range : { ...range, min: range.max, max: range.min };
}

export function parseSearchState(params: URLSearchParams): SearchState {
  const catRatings = ordered({
    min: rating(params.get('min_rating'), DEFAULT_CAT_FILTERS.minRating),
    max: rating(params.get('max_rating'), DEFAULT_CAT_FILTERS.maxRating),
  });
  const bodegaRatings = ordered({
    min: rating(params.get('bodega_min_rating'), DEFAULT_BODEGA_FILTERS.minRating),
    max: rating(params.get('bodega_max_rating'), DEFAULT_BODEGA_FILTERS.maxRating),
  });
  const cats = ordered({
    min: catCount(params.get('min_cats'), DEFAULT_BODEGA_FILTERS.minCats),
    max: catCount(params.get('max_cats'), DEFAULT_BODEGA_FILTERS.maxCats),
  });
  return {
    q: (params.get('q') ?? '').slice(0, 200),
    tab: params.get('tab') === 'bodegas' ? 'bodegas' : 'cats',
    cat: {
      breed: params.get('breed') ?? '',
      personality: params.get('personality') ?? '',
      friendliness: friendliness(params.get('friendly')),
      minRating: catRatings.min,
      maxRating: catRatings.max,
    },
    bodega: {
      minCats: cats.min,
      maxCats: cats.max,
      minRating: bodegaRatings.min,
      maxRating: bodegaRatings.max,
      verifiedOnly: params.get('verified') === 'true',
    },
    area: parseArea(params.get('area')),
  };
}

/** The URL parameters of a search; defaults are left out so shared links stay short. */
export function serializeSearchState(state: SearchState): URLSearchParams {
  const params = new URLSearchParams();
  const put = (key: string, value: string | number | boolean, fallback: string | number | boolean) => {
    if (value !== fallback) params.set(key, String(value));
  };
  put('q', state.q.trim(), '');
  put('tab', state.tab, 'cats');
  put('breed', state.cat.breed, '');
  put('personality', state.cat.personality, '');
  put('friendly', state.cat.friendliness, 'all');
  put('min_rating', state.cat.minRating, DEFAULT_CAT_FILTERS.minRating);
  put('max_rating', state.cat.maxRating, DEFAULT_CAT_FILTERS.maxRating);
  put('min_cats', state.bodega.minCats, DEFAULT_BODEGA_FILTERS.minCats);
  put('max_cats', state.bodega.maxCats, DEFAULT_BODEGA_FILTERS.maxCats);
  put('bodega_min_rating', state.bodega.minRating, DEFAULT_BODEGA_FILTERS.minRating);
  put('bodega_max_rating', state.bodega.maxRating, DEFAULT_BODEGA_FILTERS.maxRating);
  put('verified', state.bodega.verifiedOnly, false);
  if (state.area) params.set('area', formatArea(state.area));
  return params;
}
