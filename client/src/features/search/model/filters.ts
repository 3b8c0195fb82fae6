// Search filters: their defaults, the interface's ranges, and the query parameters they become.
// Only filters that differ from their defaults are ever sent.
export type Friendliness = 'all' | 'friendly' | 'not_friendly';

export type CatFilters = {
  breed: string;
  personality: string;
  friendliness: Friendliness;
  minRating: number;
  maxRating: number;
};

export type BodegaFilters = {
  minCats: number;
  maxCats: number;
  minRating: number;
  maxRating: number;
  verifiedOnly: boolean;
};

export const RATING_RANGE = { min: 0, max: 5, step: 0.5 } as const;
/** The slider covers 0..20; the state's "no upper limit" default is 100. */
export const CAT_COUNT_RANGE = { min: 0, max: 100, sliderMax: 20, step: 1 } as const;

export const DEFAULT_CAT_FILTERS: CatFilters = Object.freeze({
  breed: '',
  personality: '',
  friendliness: 'all',
  minRating: RATING_RANGE.min,
  maxRating: RATING_RANGE.max,
});

export const DEFAULT_BODEGA_FILTERS: BodegaFilters = Object.freeze({
  minCats: CAT_COUNT_RANGE.min,
  maxCats: CAT_COUNT_RANGE.max,
  minRating: RATING_RANGE.min,
  maxRating: RATING_RANGE.max,
  verifiedOnly: false,
});

export type FilterParams = Record<string, string>;

export function catFilterParams(filters: CatFilters): FilterParams {
  const params: FilterParams = {};
  if (filters.breed) params.breed = filters.breed;
  if (filters.personality) params.personality = filters.personality;
  if (filters.friendliness !== 'all') params.is_friendly = String(filters.friendliness === 'friendly');
  if (filters.minRating !== DEFAULT_CAT_FILTERS.minRating) params.min_rating = String(filters.minRating);
  if (filters.maxRating !== DEFAULT_CAT_FILTERS.maxRating) params.max_rating = String(filters.maxRating);
  return params;
}

export function bodegaFilterParams(filters: BodegaFilters): FilterParams {
  const params: FilterParams = {};
  if (filters.minCats !== DEFAULT_BODEGA_FILTERS.minCats) params.min_cats = String(filters.minCats);
  if (filters.maxCats !== DEFAULT_BODEGA_FILTERS.maxCats) params.max_cats = String(filters.maxCats);
  if (filters.minRating !== DEFAULT_BODEGA_FILTERS.minRating) params.min_rating = String(filters.minRating);
  if (filters.maxRating !== DEFAULT_BODEGA_FILTERS.maxRating) params.max_rating = String(filters.maxRating);
  if (filters.verifiedOnly) params.verified_only = 'true';
  return params;
}

export type FilterChip = { id: string; label: string };

const FRIENDLINESS_LABELS: Record<Friendliness, string> = {
  all: 'All Cats',
  friendly: 'Friendly Only',
  not_friendly: 'Not Friendly',
};

export function friendlinessLabel(value: Friendliness): string {
  return FRIENDLINESS_LABELS[value];
}

/** One removable chip per active cat filter. */
export function catFilterChips(filters: CatFilters): FilterChip[] {
  const chips: FilterChip[] = [];
  if (filters.breed) chips.push({ id: 'breed', label: `Breed: ${filters.breed}` });
  if (filters.personality) chips.push({ id: 'personality', label: `Personality: ${filters.personality}` });
  if (filters.friendliness !== 'all')
    chips.push({ id: 'friendliness', label: friendlinessLabel(filters.friendliness) });
  if (filters.minRating !== RATING_RANGE.min)
    chips.push({ id: 'minRating', label: `Min rating: ${filters.minRating}` });
  if (filters.maxRating !== RATING_RANGE.max)
    chips.push({ id: 'maxRating', label: `Max rating: ${filters.maxRating}` });
  return chips;
}

/** One removable chip per active bodega filter. */
export function bodegaFilterChips(filters: BodegaFilters): FilterChip[] {
  const chips: FilterChip[] = [];
  if (filters.minCats !== CAT_COUNT_RANGE.min)
    chips.push({ id: 'minCats', label: `Min cats: ${filters.minCats}` });
  if (filters.maxCats !== CAT_COUNT_RANGE.max)
    chips.push({ id: 'maxCats', label: `Max cats: ${filters.maxCats}` });
  if (filters.minRating !== RATING_RANGE.min)
    chips.push({ id: 'minRating', label: `Min rating: ${filters.minRating}` });
  if (filters.maxRating !== RATING_RANGE.max)
    chips.push({ id: 'maxRating', label: `Max rating: ${filters.maxRating}` });
  if (filters.verifiedOnly) chips.push({ id: 'verifiedOnly', label: 'Verified Bodegas Only' });
  return chips;
}

/** The filters with one chip's filter put back to its default. */
export function withoutCatFilter(filters: CatFilters, chipId: string): CatFilters {
  const key = chipId as keyof CatFilters;
  return key in DEFAULT_CAT_FILTERS ? { ...filters, [key]: DEFAULT_CAT_FILTERS[key] } : filters;
}

export function withoutBodegaFilter(filters: BodegaFilters, chipId: string): BodegaFilters {
  const key = chipId as keyof BodegaFilters;
  return key in DEFAULT_BODEGA_FILTERS ? { ...filters, [key]: DEFAULT_BODEGA_FILTERS[key] } : filters;
}
