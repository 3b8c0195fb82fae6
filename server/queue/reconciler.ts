// The reconciler re-drives work the read tables say is unfinished, whatever happened to the job
// that should have done it (a queue emptied by an operator, a Redis restored from an old snapshot,
// a bug fixed since). What counts as unfinished is each domain's to say, in a ReconcileRule beside
// its dispatch rules (listed in workers/jobs.ts); this runs the rules, one pass at a time across
// the worker processes, and queues a job for each piece they find. It only adds jobs; the
// processors are idempotent, so a job it adds for work that finishes meanwhile is harmless.
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import { tryTurn } from '../events/locks.ts';
import { QUEUE_NAMES, type JobRequest, type QueueName } from './jobs.ts';
import type { JobQueue } from './queue.ts';

export type ReconcileRule = {
  /**
   * The unfinished work the read tables show, read in the pass's transaction: each piece as the
   * job that finishes it, its id naming the piece (the job gets the pass's own id from it).
   */
  find(trx: Kysely<DB>): Promise<JobRequest[]>;
  /** Only a piece found on two passes in a row is unfinished: it may be waiting for its job. */
  confirmTwice?: boolean;
};

/** How many jobs a pass queued, by queue. */
export type ReconcileResult = Record<QueueName, number>;

export type Reconciler = {
  /** One pass: finds unfinished work and queues a job for each piece. */
  run(): Promise<ReconcileResult>;
};

/** Lock key shared by every worker process, so one pass runs at a time across them. */
const LOCK_KEY = 'bodega-reconciler';

export function createReconciler(
  services: { database: Database; queue: JobQueue },
  rules: readonly ReconcileRule[],
): Reconciler {
  const { db } = services.database;
  // The pieces each rule found on the previous pass, by job id.
  const seenBefore = rules.map(() => new Set<string>());

  return {
    async run() {
      const found = await db.transaction().execute(async (trx) => {
        if (!(await tryTurn(trx, LOCK_KEY))) return null;
        const pieces: JobRequest[][] = [];
        for (const rule of rules) pieces.push(await rule.find(trx));
        return pieces;
      });
      const result = Object.fromEntries(QUEUE_NAMES.map((queue) => [queue, 0])) as ReconcileResult;
      if (!found) return result;
      const due = rules.flatMap((rule, i) => {
        const pieces = found[i]!;
        const before = seenBefore[i]!;
        seenBefore[i] = new Set(pieces.map((piece) => piece.id));
        return rule.confirmTwice ? pieces.filter((piece) => before.has(piece.id)) : pieces;
      });
      const stamp = Date.now();
      const jobs = due.map((piece): JobRequest => ({ ...piece, id: `reconcile-${stamp}-${piece.id}` }));
      for (const job of jobs) result[job.queue] += 1;
      if (jobs.length > 0) await services.queue.add(jobs);
      return result;
    },
  };
}
