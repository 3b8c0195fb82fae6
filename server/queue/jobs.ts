// Job type definitions shared by the dispatcher (producer) and the workers (consumers).
import type { TargetType } from '../db/schema.ts';

export type JobMap = {
  photos: { photo_id: number };
  ratings: { target_type: TargetType; target_id: number };
};
export type QueueName = keyof JobMap;
export const QUEUE_NAMES: readonly QueueName[] = ['photos', 'ratings'];

export type JobRequest<Q extends QueueName = QueueName> = { queue: Q; id: string; data: JobMap[Q] };
export type JobContext = { id: string; attempt: number };
export type Processor<Q extends QueueName> = (data: JobMap[Q], ctx: JobContext) => Promise<void>;
export type Processors = { [Q in QueueName]: Processor<Q> };

/** Thrown for input that can never succeed: the job fails at once instead of retrying. */
export class UnrecoverableJobError extends Error {
  override name = 'UnrecoverableJobError';
}

/** Attempts a job gets for real errors; transient trouble (see isTransientError) never counts. */
export const JOB_ATTEMPTS = 5;
export const JOB_BACKOFF_MS = 500;
/** The longest wait between two tries while a dependency is down. */
export const JOB_MAX_BACKOFF_MS = 30_000;

/** Exponential backoff from JOB_BACKOFF_MS, capped at JOB_MAX_BACKOFF_MS; `tries` counts from 1. */
export function backoffMs(tries: number): number {
  return Math.min(JOB_MAX_BACKOFF_MS, JOB_BACKOFF_MS * 2 ** Math.min(20, Math.max(0, tries - 1)));
}
