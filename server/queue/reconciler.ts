// The reconciler re-drives work the read tables say is unfinished, whatever happened to the job
// that should have done it (a queue emptied by an operator, a Redis restored from an old snapshot,
// a bug fixed since). What counts as unfinished is each domain's to say, in a ReconcileRule beside
// its dispatch rules (listed in workers/jobs.ts); this runs the rules, one pass at a time across
// the worker processes, and queues a job for each piece they find. It only adds jobs; the
// processors are idempotent, so a job it adds for work that finishes meanwhile is harmless. Besides
// the rules, sweeps remove what the read tables say nothing refers to any more (a domain's objects
// left by a crash), run by the process whose pass it is.
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

/**
 * Removes what nothing in the read tables refers to any more. It runs after the pass's transaction,
 * as it may wait on other services and must hold no connection meanwhile (embedded storage has
 * one); two running at once, on a pass that outlasts the interval, only remove the same things.
 * Bounded per run and logged by the sweep itself; it answers how much it removed.
 */
export type ReconcileSweep = { run(): Promise<number> };

/** How many jobs a pass queued, by queue. */
export type ReconcileResult = Record<QueueName, number>;

export type Reconciler = {
  /** One pass: finds unfinished work and queues a job for each piece, then runs the sweeps. */
  run(): Promise<ReconcileResult>;
};

/** Lock key shared by every worker process, so one pass runs at a time across them. */
const LOCK_KEY = 'bodega-reconciler';

export function createReconciler(
  services: { database: Database; queue: JobQueue },
  rules: readonly ReconcileRule[],
  sweeps: readonly ReconcileSweep[] = [],
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
      for (const sweep of sweeps) await sweep.run();
      return result;
    },
  };
}
