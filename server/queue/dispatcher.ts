// The job dispatcher: an async consumer of the log that turns events into jobs (an outbox through
// the log). Job ids are derived from the log's incarnation and the event position, so a
// re-dispatch is a no-op and a queue that remembers ids from before a restore swallows nothing; the
// checkpoint only advances after the queue accepted the jobs, so Redis being down loses nothing.
// In embedded mode the jobs are rows written in the checkpoint's own transaction.
import type { Database } from '../db/database.ts';
import { startCheckpointedConsumer, type ConsumerLoop } from '../events/consumer.ts';
import { currentIncarnation } from '../events/incarnation.ts';
import type { EventType, RecordedEvent } from '../events/types.ts';
import type { JobQueue } from './queue.ts';
import type { JobRequest } from './jobs.ts';

export const DISPATCHER = 'job-dispatcher';

export type DispatchRule<T extends EventType = EventType> = {
  type: T;
  jobs(event: RecordedEvent<T>): JobRequest[];
};

/**
 * The part of a job id a rule gives: the job `name` caused by the event at `position`. The
 * dispatcher puts the log's incarnation in front (see jobsFor), so a queued job's id is
 * `<incarnation>-<position>-<name>`; parsers of job ids (ratings' causedBy) expect that form.
 */
export function jobId(event: RecordedEvent, name: string): string {
  return `${event.position}-${name}`;
}

/**
 * The jobs a batch of events causes, with ids unique per log incarnation: positions start again
 * below ids a queue may still remember after a restore and a rebase, the incarnation does not.
 */
export function jobsFor(
  rules: readonly DispatchRule[],
  events: readonly RecordedEvent[],
  incarnation: string,
): JobRequest[] {
  return events.flatMap((event) =>
    rules
      .filter((r) => r.type === event.type)
      .flatMap((r) => (r.jobs as (e: RecordedEvent) => JobRequest[])(event))
      .map((job) => ({ ...job, id: `${incarnation}-${job.id}` })),
  );
}

export function startDispatcher(
  database: Database,
  queue: JobQueue,
  rules: readonly DispatchRule[],
  options: { pollMs?: number; onError?(error: unknown): void } = {},
): Promise<ConsumerLoop> {
  return startCheckpointedConsumer(
    database,
    {
      name: DISPATCHER,
      batchSize: 500,
      async handle(trx, events) {
        // Read in the checkpoint's transaction (embedded) or just before its compare-and-set
        // (BullMQ): a rebase changes both the incarnation and the checkpoint.
        const jobs = jobsFor(rules, events, await currentIncarnation(trx));
        if (jobs.length > 0) await queue.add(jobs, queue.kind === 'inline' ? trx : undefined);
      },
      afterCommit: () => queue.wake?.(),
      // BullMQ's jobs live in Redis: no transaction may wait on it. Embedded jobs are rows written
      // in the checkpoint's own transaction.
      effectOutsideTransaction: queue.kind === 'bullmq',
    },
    options,
  );
}
