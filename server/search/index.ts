// What the search lets the other domains use (its declared interface; see docs/architecture.md):
// the filters and text of a query as SQL, which the map's clusters apply as the search does.
export { bodegaConditions } from './bodegas.ts';
export { catConditions } from './cats.ts';
export {
  BoxFields,
  EitherTypeFields,
  bodegaFiltersOf,
  boxOf,
  catFiltersOf,
  rejectFiltersOfOtherType,
} from './params.ts';
export { parseTextQuery, resolveText } from './text.ts';
