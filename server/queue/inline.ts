// Embedded mode's job runner: the same processors as the worker process, in this process, with jobs
// kept in the `jobs` table. The dispatcher inserts a batch's jobs in the transaction that advances
// its checkpoint, so a job dispatched is a job stored: a crash at any moment loses none, and the
// runner picks up whatever is left when it starts again. A job row is deleted once its processor
// succeeds; one that failed for good keeps its row (failed_at, last_error) for a week.
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { JOB_ATTEMPTS, QUEUE_NAMES, UnrecoverableJobError, backoffMs } from './jobs.ts';
import type { JobRequest, Processors, QueueName } from './jobs.ts';
import type { JobQueue, QueueCounts } from './queue.ts';
import { isTransientError } from '../dependency-errors.ts';

type JobRow = { id: string; data: unknown; attempts: number; retries: number };

export type InlineQueueOptions = {
  onFailed?(job: JobRequest, error: unknown): void;
  onError?(error: unknown): void;
  /** How often the runner looks for due jobs when nothing woke it (retries, jobs left by a crash). */
  pollMs?: number;
  /** Wait before try number `tries` + 1 (tests shorten it). */
  backoff?(tries: number): number;
};

const FAILED_KEPT_MS = 7 * 24 * 3600 * 1000;

export function createInlineQueue(database: Database, options: InlineQueueOptions = {}): JobQueue {
  const { db } = database;
  const active: Record<QueueName, Set<string>> = { photos: new Set(), ratings: new Set() };
  const completed: Record<QueueName, number> = { photos: 0, ratings: 0 };
  const pumping: Record<QueueName, boolean> = { photos: false, ratings: false };
  const again: Record<QueueName, boolean> = { photos: false, ratings: false };
  const running = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let processors: Processors | null = null;
  let limits: Record<QueueName, number> = { photos: 1, ratings: 1 };
  let closed = false;
  let poller: NodeJS.Timeout | null = null;
  let lastPrune = 0;

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  const pump = async (queue: QueueName): Promise<void> => {
    if (!processors || closed) return;
    if (pumping[queue]) {
      again[queue] = true;
      return;
    }
    pumping[queue] = true;
    try {
      do {
        again[queue] = false;
        const free = limits[queue] - active[queue].size;
        if (free <= 0) break;
        const busy = [...active[queue]];
        const { rows } = await sql<JobRow>`
          select id, data, attempts, retries from jobs
          where queue = ${queue} and failed_at is null and run_at <= now()
            and not (id = any(${busy}::text[]))
          order by run_at, created_at
          limit ${free}`.execute(db);
        for (const row of rows) start(queue, row);
      } while (again[queue] && !closed);
    } catch (error) {
      // The next poll tries again; nothing is lost while the rows are there.
      options.onError?.(error);
    } finally {
      pumping[queue] = false;
    }
  };

  const start = (queue: QueueName, row: JobRow) => {
    active[queue].add(row.id);
    const task = run(queue, row).finally(() => {
      running.delete(task);
      active[queue].delete(row.id);
      void pump(queue);
    });
    running.add(task);
  };

  const run = async (queue: QueueName, row: JobRow) => {
    const processor = processors![queue] as (
      data: unknown,
      ctx: { id: string; attempt: number },
    ) => Promise<void>;
    try {
      await processor(row.data, { id: row.id, attempt: row.attempts + 1 });
      await db.deleteFrom('jobs').where('queue', '=', queue).where('id', '=', row.id).execute();
      completed[queue] += 1;
    } catch (error) {
      // A job cut short by shutdown simply runs again at the next start.
      if (closed) return;
      const transient = isTransientError(error);
      const attempts = transient ? row.attempts : row.attempts + 1;
      const message = error instanceof Error ? error.message : String(error);
      try {
        if (!transient && (error instanceof UnrecoverableJobError || attempts >= JOB_ATTEMPTS)) {
          await sql`
            update jobs set attempts = ${attempts}, failed_at = now(), last_error = ${message.slice(0, 2000)}
            where queue = ${queue} and id = ${row.id}`.execute(db);
          options.onFailed?.({ queue, id: row.id, data: row.data } as JobRequest, error);
          return;
        }
        const retries = row.retries + 1;
        const delay = (options.backoff ?? backoffMs)(transient ? retries : attempts);
        await sql`
          update jobs set attempts = ${attempts}, retries = ${retries}, last_error = ${message.slice(0, 2000)},
                          run_at = now() + ${delay} * interval '1 millisecond'
          where queue = ${queue} and id = ${row.id}`.execute(db);
        later(delay, () => void pump(queue));
      } catch (recordError) {
        // The database itself is unreachable: the row is unchanged and still due, so the next poll
        // retries it.
        options.onError?.(recordError);
      }
    }
  };

  const poll = () => {
    for (const q of QUEUE_NAMES) void pump(q);
    if (Date.now() - lastPrune > 3600_000) {
      lastPrune = Date.now();
      void db
        .deleteFrom('jobs')
        .where('failed_at', '<', new Date(Date.now() - FAILED_KEPT_MS))
        .execute()
        .catch((error: unknown) => options.onError?.(error));
    }
  };

  const pending = async (): Promise<number> => {
    const row = await db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('failed_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  };

  return {
    kind: 'inline',
    async add(jobs, trx) {
      if (closed) throw new Error('queue is closed');
      if (jobs.length === 0) return;
      await (trx ?? db)
        .insertInto('jobs')
        .values(jobs.map((j) => ({ queue: j.queue, id: j.id, data: JSON.stringify(j.data) })))
        .onConflict((oc) => oc.columns(['queue', 'id']).doNothing())
        .execute();
      // Inside a transaction the rows are not visible until it commits: the caller wakes us then.
      if (!trx) this.wake?.();
    },
    wake() {
      setImmediate(poll);
    },
    async process(procs, concurrency) {
      processors = procs;
      limits = concurrency;
      poller = setInterval(poll, options.pollMs ?? 1000);
      poller.unref();
      poll();
    },
    async counts() {
      const { rows } = await sql<{ queue: string; failed: number; delayed: number; due: number }>`
        select queue,
               count(*) filter (where failed_at is not null)::int as failed,
               count(*) filter (where failed_at is null and run_at > now())::int as delayed,
               count(*) filter (where failed_at is null and run_at <= now())::int as due
        from jobs group by queue`.execute(db);
      const out = Object.fromEntries(
        QUEUE_NAMES.map((q) => [
          q,
          { waiting: 0, active: active[q].size, delayed: 0, failed: 0, completed: completed[q] },
        ]),
      ) as QueueCounts;
      for (const row of rows) {
        const q = row.queue as QueueName;
        if (!out[q]) continue;
        out[q].waiting = Math.max(0, Number(row.due) - active[q].size);
        out[q].delayed = Number(row.delayed);
        out[q].failed = Number(row.failed);
      }
      return out;
    },
    async idle() {
      if (!processors) return;
      while (!closed && (running.size > 0 || (await pending()) > 0)) {
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async ping() {},
    async close() {
      closed = true;
      if (poller) clearInterval(poller);
      for (const t of timers) clearTimeout(t);
      timers.clear();
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
