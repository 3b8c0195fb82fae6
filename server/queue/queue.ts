// The job queue behind one small interface: BullMQ on Redis, or an in-process runner that calls
// the same processors (embedded mode).
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { JobRequest, Processors, QueueName } from './jobs.ts';

export type QueueCounts = Record<
  QueueName,
  { waiting: number; active: number; delayed: number; failed: number; completed: number }
>;

export type JobQueue = {
  kind: 'bullmq' | 'inline';
  /**
   * Adds jobs; a job whose id is already queued is ignored. Rejects fast when the queue is down.
   * A queue kept in the database (embedded mode) writes them in `trx` when one is given, so they
   * commit or roll back with it; call wake() after the commit.
   */
  add(jobs: JobRequest[], trx?: Kysely<DB>): Promise<void>;
  /** Looks for due jobs now (after a transaction that added some committed). */
  wake?(): void;
  /** Starts consuming with the given processors (a worker process, or embedded mode). */
  process(processors: Processors, concurrency: Record<QueueName, number>): Promise<void>;
  counts(): Promise<QueueCounts>;
  /** Resolves once no job is waiting or running (tests and shutdown). */
  idle(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** The BullMQ queues behind this queue, for the operators' dashboard (BullMQ only). */
  bullQueues?(): import('bullmq').Queue[];
};
