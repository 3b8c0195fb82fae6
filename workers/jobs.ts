// Every domain's jobs: the rules that turn its events into jobs, the processors that run them and
// the rules that find work whose job was lost. Each domain owns all three (photos/jobs.ts and
// photos/reconcile.ts, reviews/ratings.ts and reviews/reconcile.ts); a domain with jobs adds
// itself here.
import type { Services } from '../server/services.ts';
import type { DispatchRule } from '../server/queue/dispatcher.ts';
import type { Processors } from '../server/queue/jobs.ts';
import type { ReconcileRule, ReconcileSweep } from '../server/queue/reconciler.ts';
import { createPhotosProcessor, photoDeletedRule, photoUploadedRule } from '../server/photos/jobs.ts';
import { orphanObjectsSweep, stalePhotosRule } from '../server/photos/reconcile.ts';
import { createRatingsProcessor, ratingsDispatchRules } from '../server/reviews/ratings.ts';
import { differingRatingsRule } from '../server/reviews/reconcile.ts';

export const dispatchRules: readonly DispatchRule[] = [
  ...ratingsDispatchRules,
  photoUploadedRule,
  photoDeletedRule,
];

export function createProcessors(services: Services): Processors {
  return { photos: createPhotosProcessor(services), ratings: createRatingsProcessor(services) };
}

export type ReconcileOptions = {
  /** A photo still processing this long after its upload is re-driven (default 10). */
  stalePhotoMinutes?: number;
};

export function reconcileRules(options: ReconcileOptions = {}): readonly ReconcileRule[] {
  return [stalePhotosRule(options.stalePhotoMinutes ?? 10), differingRatingsRule];
}

/** What the reconciler removes besides: photo objects no photo refers to, ORPHAN_MIN_AGE_HOURS old. */
export function reconcileSweeps(
  services: Pick<Services, 'database' | 'photoStorage' | 'logger' | 'config'>,
): readonly ReconcileSweep[] {
  return [orphanObjectsSweep(services, { minAgeHours: services.config.orphanMinAgeHours })];
}
