// The registry of the domains' projections: each domain with read tables adds itself here and
// nowhere else. (Their routes are listed in routes.ts, their jobs in workers/jobs.ts.)
import type { Projection } from './events/projection.ts';
import { catalogueProjection } from './catalogue/projection.ts';
import { photosProjection } from './photos/projection.ts';
import { mapProjection } from './map/projection.ts';
import { moderationProjection } from './moderation/projection.ts';
import { savesProjection } from './lists/saves-projection.ts';
import { reviewsProjection } from './reviews/projection.ts';
import { searchWordsProjection } from './search/words-projection.ts';

export const projections: readonly Projection[] = [
  catalogueProjection,
  reviewsProjection,
  savesProjection,
  photosProjection,
  searchWordsProjection,
  mapProjection,
  moderationProjection,
];
