// The log's incarnation, and what to do when the log comes back from a restore. Consumers read on
// (transaction_id, global_position) cursors. A dump restored into another cluster (or a move to a
// new server) keeps the old transaction ids, while the new cluster hands out lower ones: every new
// event would sort below every checkpoint and consumers would silently stop. Processes refuse to
// start on such a log (checkLogIncarnation); `npm run log -- rebase` (rebaseLog) makes it consumable
// again and gives it a new incarnation id, which job ids carry (workers/dispatcher.ts).
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { compareCursors, consumerLag, type Cursor } from './consumer.ts';

export type LogIncarnation = {
  /** True when stored transaction ids are ahead of this cluster's: the log came from elsewhere. */
  restored: boolean;
  /** The highest transaction id in `events` (null for an empty log). */
  eventsTransactionId: string | null;
  /** The highest transaction id a subscription checkpointed (null without subscriptions). */
  subscriptionsTransactionId: string | null;
  /** The next transaction id this cluster will hand out (xmax of a fresh snapshot). */
  clusterTransactionId: string;
  /** The oldest transaction still running on the cluster (xmin of a fresh snapshot). */
  horizon: string;
  /** The incarnation id, or null before its migration ran. */
  incarnation: string | null;
};

/**
 * Compares the transaction ids stored in `events` and `subscriptions` with the cluster's. Every
 * transaction this cluster ran is below the xmax of a snapshot taken now, so a stored id at or above
 * it was written by another cluster: the log was restored (or moved) and must be rebased before any
 * consumer runs. Reads only; it never takes a transaction id.
 */
export async function checkLogIncarnation(db: Kysely<DB>): Promise<LogIncarnation> {
  const { rows } = await sql<{
    events_xid: string | null;
    subs_xid: string | null;
    next_xid: string;
    horizon: string;
  }>`
    select
      (select transaction_id::text from events order by transaction_id desc limit 1) as events_xid,
      (select last_transaction_id::text from subscriptions
        order by last_transaction_id desc limit 1) as subs_xid,
      pg_snapshot_xmax(pg_current_snapshot())::text as next_xid,
      pg_snapshot_xmin(pg_current_snapshot())::text as horizon`.execute(db);
  const row = rows[0]!;
  const next = BigInt(row.next_xid);
  const ahead = (xid: string | null) => xid !== null && BigInt(xid) >= next;
  return {
    restored: ahead(row.events_xid) || ahead(row.subs_xid),
    eventsTransactionId: row.events_xid,
    subscriptionsTransactionId: row.subs_xid,
    clusterTransactionId: row.next_xid,
    horizon: row.horizon,
    incarnation: await currentIncarnation(db).catch(() => null),
  };
}

/** What a process says when it refuses to start on a restored log. */
export function restoredLogMessage(log: LogIncarnation): string {
  const stored = [log.eventsTransactionId, log.subscriptionsTransactionId]
    .filter((x): x is string => x !== null)
    .reduce((a, b) => (BigInt(a) >= BigInt(b) ? a : b));
  return (
    `The event log was restored from another database cluster: it holds transaction id ${stored}, ` +
    `ahead of this cluster's ${log.clusterTransactionId}, so consumers would silently skip every ` +
    'new event. Stop every api and worker process, run `npm run log -- rebase`, then start again.'
  );
}

export class RestoredLogError extends Error {
  override name = 'RestoredLogError';
  constructor(readonly log: LogIncarnation) {
    super(restoredLogMessage(log));
  }
}

/** Throws RestoredLogError when the log must be rebased before consumers may run. */
export async function assertLogConsumable(db: Kysely<DB>): Promise<LogIncarnation> {
  const log = await checkLogIncarnation(db);
  if (log.restored) throw new RestoredLogError(log);
  return log;
}

/** The log's incarnation id (job ids start with it). */
export async function currentIncarnation(db: Kysely<DB>): Promise<string> {
  const row = await db.selectFrom('log_incarnation').select('id').executeTakeFirst();
  if (!row) throw new Error('the log has no incarnation id: run `npm run migrate`');
  return row.id;
}

export function newIncarnationId(): string {
  return randomBytes(6).toString('hex');
}

export type SubscriptionStatus = {
  name: string;
  cursor: Cursor;
  /** Events after the cursor in log order (what the consumer will still read). */
  lagEvents: number;
  lagSeconds: number;
  /** Events with a higher position than the cursor's; differs from lagEvents on a restored log. */
  eventsAfterPosition: number;
};

export type LogStatus = LogIncarnation & {
  headPosition: number;
  eventCount: number;
  subscriptions: SubscriptionStatus[];
};

/** Everything `npm run log -- status` prints. */
export async function logStatus(db: Kysely<DB>): Promise<LogStatus> {
  const log = await checkLogIncarnation(db);
  const { rows } = await sql<{ head: string | null; n: string }>`
    select max(global_position)::text as head, count(*)::text as n from events`.execute(db);
  const subs = await sql<{ name: string; xid: string; pos: string; after: string }>`
    select s.name, s.last_transaction_id::text as xid, s.last_position::text as pos,
           (select count(*) from events e where e.global_position > s.last_position)::text as after
    from subscriptions s order by s.name`.execute(db);
  const subscriptions: SubscriptionStatus[] = [];
  for (const s of subs.rows) {
    const lag = await consumerLag(db, s.name);
    subscriptions.push({
      name: s.name,
      cursor: { transactionId: s.xid, position: Number(s.pos) },
      lagEvents: lag.events,
      lagSeconds: lag.seconds,
      eventsAfterPosition: Number(s.after),
    });
  }
  return {
    ...log,
    headPosition: Number(rows[0]?.head ?? 0),
    eventCount: Number(rows[0]?.n ?? 0),
    subscriptions,
  };
}

export type RebaseResult = {
  /** The transaction the rebase ran in; every event now has this id or one just below it. */
  transactionId: string;
  events: number;
  subscriptions: { name: string; before: Cursor; after: Cursor }[];
  incarnation: { before: string | null; after: string };
};

export class RebaseRefusedError extends Error {
  override name = 'RebaseRefusedError';
}

/**
 * Makes a restored log consumable again, in one transaction: every event's transaction id is
 * rewritten to this transaction's id (or one of the few just below it, see below), every
 * subscription's cursor is moved to match, and the log gets a new incarnation id.
 *
 * Within a restored log, position order is the truth, and a consumer resumes exactly where it was:
 * an event its checkpoint covered stays covered, every other event stays ahead of it. Usually that
 * is "same id, position unchanged". The exception is an event that committed after a checkpoint
 * although its position is lower (it was in flight when the consumer checkpointed): with one id for
 * all, the unchanged position would skip it. So the events are cut into groups at the distinct
 * checkpoints, in the old (transaction id, position) order, and group g gets id X - k + g (X this
 * transaction's id, k the number of distinct checkpoints); each checkpoint then points at the end
 * of its group. Events appended in this cluster since the restore (ids below the restored ones,
 * positions above them) were covered by no checkpoint: they go last, with id X. Every id is at
 * most X, so events appended after the rebase sort after all of them.
 *
 * The app must be stopped: a session of this database with a transaction id older than this one
 * could append events below the new checkpoints, so the rebase refuses while one exists.
 */
export async function rebaseLog(db: Kysely<DB>): Promise<RebaseResult> {
  return db.transaction().execute(async (trx) => {
    // Appenders finish first (and their rows are rewritten too); consumers wait until we are done.
    await sql`lock table events, subscriptions in exclusive mode`.execute(trx);
    const { rows: me } = await sql<{ xid: string }>`select pg_current_xact_id()::text as xid`.execute(trx);
    const xid = BigInt(me[0]!.xid);
    const { rows: others } = await sql<{ pid: number }>`
      select pid from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and backend_xid is not null`.execute(
      trx,
    );
    if (others.length > 0)
      throw new RebaseRefusedError(
        `other sessions of this database have transactions open (pids ${others.map((o) => o.pid).join(', ')}): ` +
          'stop every api and worker process, then run the rebase again',
      );

    const { rows: subs } = await sql<{ name: string; xid: string; pos: string }>`
      select name, last_transaction_id::text as xid, last_position::text as pos
      from subscriptions order by name`.execute(trx);
    const before = subs.map((s) => ({
      name: s.name,
      cursor: { transactionId: s.xid, position: Number(s.pos) } as Cursor,
    }));
    const cuts = dedupe(before.map((s) => s.cursor).sort(compareCursors));
    const base = xid - BigInt(cuts.length);
    if (base < 3n)
      throw new RebaseRefusedError(`this cluster's transaction id (${xid}) is too low to rebase`);

    // Events appended in this cluster after the restore have ids below the restored ones but
    // positions above them all (the sequence came with the dump), and no checkpoint covered them.
    // The restored events are known by their ids above this transaction's own.
    const { rows: restoredHead } = await sql<{ p: string | null }>`
      select max(global_position)::text as p from events where transaction_id > ${String(xid)}::xid8`.execute(
      trx,
    );
    const boundary = restoredHead[0]?.p ?? null;
    // Group of an event: how many checkpoints lie strictly before it in the old order; all of them
    // for an event appended since the restore.
    const { numAffectedRows } = await sql`
      update events e
      set transaction_id = (${String(base)}::bigint + case
        when ${boundary}::bigint is not null and e.global_position > ${boundary}::bigint
             and e.transaction_id < ${String(xid)}::xid8 then ${cuts.length}
        else (
          select count(*) from unnest(${cuts.map((c) => c.transactionId)}::numeric[], ${cuts.map((c) => c.position)}::bigint[]) as c(x, p)
          where (c.x, c.p) < (e.transaction_id::text::numeric, e.global_position))
        end)::text::xid8`.execute(trx);

    // A checkpoint at cut j (0-based) covers groups 0..j: it points at the last position of group j.
    const after: RebaseResult['subscriptions'] = [];
    for (const s of before) {
      const j = cuts.findIndex((c) => compareCursors(c, s.cursor) === 0);
      const groupXid = String(base + BigInt(j));
      const { rows } = await sql<{ p: string | null }>`
        select max(global_position)::text as p from events where transaction_id = ${groupXid}::xid8`.execute(
        trx,
      );
      const cursor: Cursor = { transactionId: groupXid, position: Number(rows[0]?.p ?? 0) };
      await sql`
        update subscriptions
        set last_transaction_id = ${cursor.transactionId}::xid8, last_position = ${cursor.position}, updated_at = now()
        where name = ${s.name}`.execute(trx);
      after.push({ name: s.name, before: s.cursor, after: cursor });
    }

    const old = await trx.selectFrom('log_incarnation').select('id').executeTakeFirst();
    const incarnation = newIncarnationId();
    await sql`
      insert into log_incarnation (singleton, id, started_at) values (true, ${incarnation}, now())
      on conflict (singleton) do update set id = excluded.id, started_at = excluded.started_at`.execute(trx);

    return {
      transactionId: String(xid),
      events: Number(numAffectedRows ?? 0),
      subscriptions: after,
      incarnation: { before: old?.id ?? null, after: incarnation },
    };
  });
}

function dedupe(sorted: Cursor[]): Cursor[] {
  return sorted.filter((c, i) => i === 0 || compareCursors(sorted[i - 1]!, c) !== 0);
}
