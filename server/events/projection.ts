// A projection: a deterministic function of events into the read tables it owns. Inline
// projections run inside the append's transaction, so a 2xx response reads its own write.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import type { EventType, RecordedEvent } from './types.ts';

type ApplyBatch = (trx: Kysely<DB>, events: readonly RecordedEvent[]) => Promise<void>;

type ProjectionBase = {
  name: string;
  /** Read tables this projection owns: replay rebuilds exactly these. */
  tables: (keyof DB)[];
  /**
   * Those of its tables that hold a set: live writers may repeat a row that replay writes once, so
   * replay's comparison reads them without repeats.
   */
  setTables?: (keyof DB)[];
  /** Event types it handles; others are never passed to it. */
  handles: readonly EventType[];
  /**
   * Optional, for replay's rebuild from the start of the log: each batch goes to `applyBatch`
   * here instead, which may leave out tables that follow from the projection's others, and
   * `finish` then makes those once, after the last batch. Catching up after that uses the
   * projection's own applyBatch again. The plan stands in for one `applyBatch`, named in
   * `replaces`: a projection made from another with its writes changed (a spread with a new
   * `apply` or `applyBatch`) no longer has that one, so replay leaves the plan out for it.
   */
  rebuild?: {
    replaces: ApplyBatch;
    applyBatch: ApplyBatch;
    finish(trx: Kysely<DB>): Promise<void>;
  };
};

/** A projection the app applies to each appended event, in the append's transaction. */
export type AppliedProjection = ProjectionBase & {
  /** Must read no clock, randomness or tables it does not own: timestamps come from the event. */
  apply(trx: Kysely<DB>, event: RecordedEvent): Promise<void>;
  /**
   * Optional: applies many events (only ones it handles, in log order) with the same outcome as
   * applying them one by one, in fewer statements. Only replay uses it, on its shadow tables, which
   * nothing else writes; without it, replay calls apply.
   */
  applyBatch?(trx: Kysely<DB>, events: readonly RecordedEvent[]): Promise<void>;
};

/**
 * A projection the database keeps itself: a trigger on the log applies each transaction's events
 * at commit, still inside the append's transaction, so appends send it nothing. Replay applies
 * the log's batches with applyBatch.
 */
export type CommitTimeProjection = ProjectionBase & {
  apply?: undefined;
  applyBatch(trx: Kysely<DB>, events: readonly RecordedEvent[]): Promise<void>;
};

export type Projection = AppliedProjection | CommitTimeProjection;

type ApplyOne = (trx: Kysely<DB>, event: RecordedEvent) => Promise<void>;

/**
 * How a projection folds runs of events into set-based writes. `fold` takes an event into the
 * pending state, or returns false when the event must be applied on its own; pending work is then
 * flushed first, so every write still lands in log order wherever order matters.
 */
export type BatchPlan<Pending> = {
  start(): Pending;
  fold(pending: Pending, event: RecordedEvent): boolean;
  flush(trx: Kysely<DB>, pending: Pending): Promise<void>;
};

/**
 * A projection's `apply` and `applyBatch` from one description of each event's effect: events the
 * plan folds are written by its flush (one event alone is a batch of one), the rest by
 * `applyUnfolded`, which is only ever given events the plan does not fold.
 */
export function plannedApply<Pending>(
  plan: BatchPlan<Pending>,
  applyUnfolded: ApplyOne,
): { apply: ApplyOne; applyBatch: ApplyBatch } {
  return {
    async apply(trx, event) {
      const pending = plan.start();
      if (plan.fold(pending, event)) await plan.flush(trx, pending);
      else await applyUnfolded(trx, event);
    },
    applyBatch: batchedApply(plan, applyUnfolded),
  };
}

function batchedApply<Pending>(plan: BatchPlan<Pending>, applyOne: ApplyOne): ApplyBatch {
  return async (trx, events) => {
    let pending = plan.start();
    let folded = 0;
    for (const event of events) {
      if (plan.fold(pending, event)) {
        folded++;
        continue;
      }
      if (folded > 0) {
        await plan.flush(trx, pending);
        pending = plan.start();
        folded = 0;
      }
      await applyOne(trx, event);
    }
    if (folded > 0) await plan.flush(trx, pending);
  };
}

/** Splits rows for multi-row statements that stay well under Postgres's 65,535 parameters. */
export function chunks<T>(rows: readonly T[], size = 1000): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** Column name to Postgres type, for insertRows. */
export type ColumnTypes = Record<string, string>;

/**
 * Inserts many rows with one statement per `chunkSize` rows: the rows travel as one JSON parameter
 * that jsonb_to_recordset turns back into typed columns, which costs far less to build, send, parse
 * and plan than a VALUES list with a parameter per value. Every column listed is inserted: a row
 * without a value for one gets null, never the column's default, so callers fill defaults in.
 * `from` may add columns taken from a join (see the catalogue's cats); it returns how many rows
 * were inserted.
 */
export async function insertRows(
  trx: Kysely<DB>,
  table: string,
  columns: ColumnTypes,
  rows: readonly object[],
  options: { chunkSize?: number; extra?: { columns: string[]; select: string; join: string } } = {},
): Promise<number> {
  const names = Object.keys(columns);
  const definition = Object.entries(columns)
    .map(([name, type]) => `${name} ${type}`)
    .join(', ');
  const extra = options.extra;
  const target = [...names, ...(extra?.columns ?? [])].join(', ');
  const select = [...names.map((n) => `r.${n}`), ...(extra ? [extra.select] : [])].join(', ');
  let inserted = 0;
  for (const part of chunks(rows, options.chunkSize ?? 10_000)) {
    const result = await sql`
      insert into ${sql.table(table)} (${sql.raw(target)})
      select ${sql.raw(select)}
      from jsonb_to_recordset(${JSON.stringify(part)}::jsonb) as r(${sql.raw(definition)})
      ${sql.raw(extra?.join ?? '')}`.execute(trx);
    inserted += Number(result.numAffectedRows ?? 0);
  }
  return inserted;
}
