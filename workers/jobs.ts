// Every domain's jobs: the rules that turn its events into jobs and the processors that run them.
// Each domain owns both (photos/jobs.ts, reviews/ratings.ts); a domain with jobs adds itself here.
import type { Services } from '../server/services.ts';
import type { DispatchRule } from '../server/queue/dispatcher.ts';
import type { Processors } from '../server/queue/jobs.ts';
import { createPhotosProcessor, photoDeletedRule, photoUploadedRule } from '../server/photos/jobs.ts';
import { createRatingsProcessor, ratingsDispatchRules } from '../server/reviews/ratings.ts';

export const dispatchRules: readonly DispatchRule[] = [
  ...ratingsDispatchRules,
  photoUploadedRule,
  photoDeletedRule,
];

export function createProcessors(services: Services): Processors {
  return { photos: createPhotosProcessor(services), ratings: createRatingsProcessor(services) };
}
