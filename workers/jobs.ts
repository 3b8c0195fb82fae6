// Job type definitions shared by the dispatcher (producer) and the workers (consumers).
import type { TargetType } from '../server/db/schema.ts';

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

export const JOB_ATTEMPTS = 5;
export const JOB_BACKOFF_MS = 500;
