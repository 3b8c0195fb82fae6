// Builds the job processors from the shared services. Each domain adds its processor here.
import type { Services } from '../server/services.ts';
import type { Processors } from './jobs.ts';
import { createPhotosProcessor } from './photos.ts';
import { createRatingsProcessor } from './ratings.ts';

export function createProcessors(services: Services): Processors {
  return { photos: createPhotosProcessor(services), ratings: createRatingsProcessor(services) };
}
