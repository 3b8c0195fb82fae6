// In-process job runner for embedded mode: same processors, bounded concurrency, retries with
// exponential backoff, and job-id deduplication like BullMQ's.
import { JOB_ATTEMPTS, JOB_BACKOFF_MS, QUEUE_NAMES, UnrecoverableJobError } from '../../workers/jobs.ts';
import type { JobRequest, Processors, QueueName } from '../../workers/jobs.ts';
import type { JobQueue, QueueCounts } from './queue.ts';

type Pending = { request: JobRequest; attempt: number };

export function createInlineQueue(
  options: { onFailed?(job: JobRequest, error: unknown): void } = {},
): JobQueue {
  const seen = new Set<string>();
  const waiting: Record<QueueName, Pending[]> = { photos: [], ratings: [] };
  const active: Record<QueueName, number> = { photos: 0, ratings: 0 };
  const stats: QueueCounts = Object.fromEntries(
    QUEUE_NAMES.map((q) => [q, { waiting: 0, active: 0, delayed: 0, failed: 0, completed: 0 }]),
  ) as QueueCounts;
  let processors: Processors | null = null;
  let limits: Record<QueueName, number> = { photos: 1, ratings: 1 };
  let delayed = 0;
  let closed = false;
  let idleWaiters: (() => void)[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const busy = () => delayed > 0 || QUEUE_NAMES.some((q) => waiting[q].length > 0 || active[q] > 0);
  const settle = () => {
    if (busy()) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    waiters.forEach((w) => w());
  };

  const pump = (queue: QueueName) => {
    if (!processors || closed) return;
    while (active[queue] < limits[queue] && waiting[queue].length > 0) {
      const job = waiting[queue].shift()!;
      active[queue] += 1;
      void run(queue, job);
    }
  };

  const run = async (queue: QueueName, job: Pending) => {
    const processor = processors![queue] as (
      data: unknown,
      ctx: { id: string; attempt: number },
    ) => Promise<void>;
    try {
      await processor(job.request.data, { id: job.request.id, attempt: job.attempt });
      stats[queue].completed += 1;
    } catch (error) {
      const final = error instanceof UnrecoverableJobError || job.attempt >= JOB_ATTEMPTS || closed;
      if (final) {
        stats[queue].failed += 1;
        options.onFailed?.(job.request, error);
      } else {
        delayed += 1;
        const timer = setTimeout(
          () => {
            timers.delete(timer);
            delayed -= 1;
            waiting[queue].push({ request: job.request, attempt: job.attempt + 1 });
            pump(queue);
            settle();
          },
          JOB_BACKOFF_MS * 2 ** (job.attempt - 1),
        );
        timers.add(timer);
      }
    } finally {
      active[queue] -= 1;
      pump(queue);
      settle();
    }
  };

  return {
    kind: 'inline',
    async add(jobs) {
      if (closed) throw new Error('queue is closed');
      for (const request of jobs) {
        const key = `${request.queue}/${request.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        waiting[request.queue].push({ request, attempt: 1 });
      }
      for (const q of QUEUE_NAMES) setImmediate(() => pump(q));
    },
    async process(procs, concurrency) {
      processors = procs;
      limits = concurrency;
      for (const q of QUEUE_NAMES) pump(q);
    },
    async counts() {
      const out = structuredClone(stats);
      for (const q of QUEUE_NAMES) {
        out[q].waiting = waiting[q].length;
        out[q].active = active[q];
      }
      out.photos.delayed = delayed;
      return out;
    },
    idle() {
      if (!busy() || !processors) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async ping() {},
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      delayed = 0;
      for (const q of QUEUE_NAMES) waiting[q].length = 0;
      while (QUEUE_NAMES.some((q) => active[q] > 0)) await new Promise((r) => setTimeout(r, 10));
      settle();
    },
  };
}
