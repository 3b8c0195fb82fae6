// What the catalogue lets the other domains use (its declared interface; see
// docs/architecture.md): the summaries of cats and bodegas as lists, search and the map show them,
// which rows are visible, the primary photo's URLs, and the operator's demo city.
export {
  primaryPhotoUrls,
  selectBodegaSummaries,
  selectCatSummaries,
  toBodegaSummary,
  toCatSummary,
  toIso,
  visible,
} from './read.ts';
export { seedDemoData } from './demo-city.ts';
