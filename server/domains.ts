// The registry of domain modules: their projections, the jobs their events dispatch, and their
// routes. Each domain adds itself here and nowhere else.
import type { Projection } from './events/projection.ts';
import type { DispatchRule } from '../workers/dispatcher.ts';
import { catalogueProjection } from './catalogue/projection.ts';
import { photosProjection } from './photos/projection.ts';
import { photoDeletedRule, photoUploadedRule } from './photos/dispatch.ts';
import { savesProjection } from './lists/saves-projection.ts';
import { reviewsProjection } from './reviews/projection.ts';
import { ratingsDispatchRules } from '../workers/ratings.ts';
import { searchWordsProjection } from './search/words-projection.ts';

export const projections: readonly Projection[] = [
  catalogueProjection,
  reviewsProjection,
  savesProjection,
  photosProjection,
  searchWordsProjection,
];

export const dispatchRules: readonly DispatchRule[] = [
  ...ratingsDispatchRules,
  photoUploadedRule,
  photoDeletedRule,
];
