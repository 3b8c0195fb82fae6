// BullMQ on Redis. Producers fail fast when Redis is down (the dispatcher retries from the log);
// workers keep reconnecting.
import { DelayedError, Queue, Worker, UnrecoverableError, type ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { JOB_ATTEMPTS, JOB_BACKOFF_MS, QUEUE_NAMES, UnrecoverableJobError, backoffMs } from './jobs.ts';
import type { QueueName } from './jobs.ts';
import type { JobQueue } from './queue.ts';
import { isTransientError } from '../dependency-errors.ts';

export type BullOptions = {
  url: string;
  prefix?: string;
  onError?(error: unknown): void;
  onFailed?(queue: QueueName, jobId: string | undefined, error: unknown): void;
  /** Wait before the next try while a dependency is down (tests shorten it). */
  transientBackoff?(tries: number): number;
};

export function createBullQueue(options: BullOptions): JobQueue {
  const prefix = options.prefix ?? 'bodega';
  const producer = new Redis(options.url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // A Redis that accepts connections but never answers must not hold a dispatcher batch forever.
    commandTimeout: 5000,
    lazyConnect: false,
  });
  producer.on('error', (e) => options.onError?.(e));
  const queues = Object.fromEntries(
    QUEUE_NAMES.map((name) => {
      const q = new Queue(name, {
        connection: producer as unknown as ConnectionOptions,
        prefix,
        defaultJobOptions: {
          attempts: JOB_ATTEMPTS,
          backoff: { type: 'exponential', delay: JOB_BACKOFF_MS },
          removeOnComplete: { age: 24 * 3600, count: 10000 },
          removeOnFail: { age: 7 * 24 * 3600 },
        },
      });
      q.on('error', (e) => options.onError?.(e));
      return [name, q];
    }),
  ) as Record<QueueName, Queue>;
  // With the offline queue off, commands fail at once unless connected: give a (re)connect a moment.
  const connected = async () => {
    if (producer.status === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        producer.off('ready', onReady);
        reject(new Error('Redis is not reachable'));
      }, 1000);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      producer.once('ready', onReady);
    });
  };
  const workers: Worker[] = [];
  const workerConnections: Redis[] = [];

  return {
    kind: 'bullmq',
    async add(jobs) {
      await connected();
      for (const name of QUEUE_NAMES) {
        const batch = jobs.filter((j) => j.queue === name);
        if (batch.length === 0) continue;
        await queues[name].addBulk(batch.map((j) => ({ name, data: j.data, opts: { jobId: j.id } })));
      }
    },
    async process(processors, concurrency) {
      for (const name of QUEUE_NAMES) {
        const connection = new Redis(options.url, { maxRetriesPerRequest: null });
        connection.on('error', (e) => options.onError?.(e));
        workerConnections.push(connection);
        const processor = processors[name] as (
          data: unknown,
          ctx: { id: string; attempt: number },
        ) => Promise<void>;
        const worker = new Worker(
          name,
          async (job, token) => {
            try {
              await processor(job.data, { id: job.id ?? '', attempt: job.attemptsMade + 1 });
            } catch (error) {
              if (error instanceof UnrecoverableJobError) throw new UnrecoverableError(error.message);
              if (!isTransientError(error) || !token) throw error;
              // Trouble around the job (a database restarting, say): wait and try again without
              // using up an attempt, for as long as the trouble lasts.
              const tries = Math.max(1, (job.attemptsStarted ?? 1) - job.attemptsMade);
              options.onError?.(error);
              await job.moveToDelayed(Date.now() + (options.transientBackoff ?? backoffMs)(tries), token);
              throw new DelayedError();
            }
          },
          {
            connection: connection as unknown as ConnectionOptions,
            prefix,
            concurrency: concurrency[name],
            // A worker cut off from Redis loses its job locks; the job must run again, not fail.
            maxStalledCount: 1000,
          },
        );
        worker.on('error', (e) => options.onError?.(e));
        worker.on('failed', (job, e) => options.onFailed?.(name, job?.id, e));
        workers.push(worker);
      }
    },
    async counts() {
      const entries = await Promise.all(
        QUEUE_NAMES.map(async (name) => {
          const c = await queues[name].getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
          return [
            name,
            {
              waiting: c.waiting ?? 0,
              active: c.active ?? 0,
              delayed: c.delayed ?? 0,
              failed: c.failed ?? 0,
              completed: c.completed ?? 0,
            },
          ];
        }),
      );
      return Object.fromEntries(entries);
    },
    async idle() {
      for (;;) {
        const counts = await this.counts();
        if (QUEUE_NAMES.every((q) => counts[q].waiting + counts[q].active + counts[q].delayed === 0)) return;
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async ping() {
      await connected();
      await producer.ping();
    },
    bullQueues() {
      return Object.values(queues);
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all(Object.values(queues).map((q) => q.close()));
      for (const c of workerConnections) c.disconnect();
      producer.disconnect();
    },
  };
}
