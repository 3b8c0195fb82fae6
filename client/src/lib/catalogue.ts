// The shapes of cats, bodegas, photos and reviews as the API sends them (see API.md, Shapes).
// The types are the contract's (contract/, imported as types only: nothing of it is bundled).
import type { TargetType } from '../../../contract/common.ts';

export type { Pagination, SearchPagination, TargetType } from '../../../contract/common.ts';
export type {
  BodegaDetail,
  BodegaResponse,
  BodegaSummary,
  CatDetail,
  CatResponse,
  CatSummary,
  Photo,
} from '../../../contract/catalogue.ts';
export type { Review } from '../../../contract/reviews.ts';

export type CatSex = '' | 'Male' | 'Female' | 'Unknown';

/** The path segment the API uses for a target type (`/api/photos/cats/...`). */
export function targetPath(type: TargetType): 'cats' | 'bodegas' {
  return type === 'cat' ? 'cats' : 'bodegas';
}

/** Text limits the server enforces (characters), so inputs stop at the same place. */
export const TEXT_LIMITS = {
  name: 100,
  address: 200,
  description: 2000,
  hours: 200,
  breed: 100,
  personality: 100,
  age: 50,
  color: 50,
  weight: 50,
  phone: 40,
  comment: 2000,
  caption: 300,
} as const;
