// The shapes of cats, bodegas, photos and reviews as the API sends them (see API.md, Shapes).
// The types are the contract's (contract/, imported as types only: none of its schemas is
// bundled); the text limits are its plain numbers, the same ones the server enforces.
import type { TargetType } from '../../../contract/common.ts';

export type { Pagination, SearchPagination, TargetType } from '../../../contract/common.ts';
export type {
  BodegaDetail,
  BodegaResponse,
  BodegaSummary,
  CatDetail,
  CatSex,
  CatResponse,
  CatSummary,
  Photo,
} from '../../../contract/catalogue.ts';
export type { Review } from '../../../contract/reviews.ts';
export { TEXT_LIMITS } from '../../../contract/text-limits.ts';

/** The path segment the API uses for a target type (`/api/photos/cats/...`). */
export function targetPath(type: TargetType): 'cats' | 'bodegas' {
  return type === 'cat' ? 'cats' : 'bodegas';
}
