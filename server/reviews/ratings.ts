// The ratings job: recompute a cat's or a bodega's average rating and review count from the
// reviews read table, and record the figure as RatingRecomputed only when it changed, so retries,
// duplicates and jobs racing for the same target are all harmless.
import { sql, type Kysely } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import { ratingLock } from '../events/locks.ts';
import { writeTransaction, type EventStore } from '../events/store.ts';
import { streamIds, type EventMetadata, type RecordedEvent } from '../events/types.ts';
import type { Services } from '../services.ts';
import { jobId, type DispatchRule } from '../queue/dispatcher.ts';
import { UnrecoverableJobError, type JobRequest, type Processor } from '../queue/jobs.ts';

function ratingsJob(event: RecordedEvent<'ReviewPosted' | 'ReviewDeleted'>): JobRequest[] {
  const { target_type, target_id } = event.data;
  return [{ queue: 'ratings', id: jobId(event, 'ratings'), data: { target_type, target_id } }];
}

/** A review hidden or restored by moderation changes the rating of what it reviews. */
function moderatedReviewJob(event: RecordedEvent<'ContentHidden' | 'ContentRestored'>): JobRequest[] {
  const { target_type, parent_type, parent_id } = event.data;
  if (target_type !== 'review' || parent_type === null || parent_id === null) return [];
  const data = { target_type: parent_type, target_id: parent_id };
  return [{ queue: 'ratings', id: jobId(event, 'ratings'), data }];
}

export const ratingsDispatchRules: DispatchRule[] = [
  { type: 'ReviewPosted', jobs: ratingsJob },
  { type: 'ReviewDeleted', jobs: ratingsJob },
  { type: 'ContentHidden', jobs: moderatedReviewJob },
  { type: 'ContentRestored', jobs: moderatedReviewJob },
];

export type RatingFigure = { rating: number; review_count: number };

/**
 * The average is rounded to 2 decimals in exact decimal arithmetic (numeric), so the same reviews
 * always give the same figure on any machine: 2 decimals is finer than anything shown (one
 * decimal) or filtered on (steps of 0.5), and avoids recording a new figure for noise in the
 * last bits of a double. No reviews gives 0, as the contract wants.
 */
/** The recorded average of the `rating` column over the rows at hand (see computeRating). */
export const AVERAGE_RATING = sql<number>`round(avg(rating)::numeric, 2)::float8`;

export async function computeRating(db: Kysely<DB>, type: TargetType, id: number): Promise<RatingFigure> {
  const { rows } = await sql<{ rating: number | null; review_count: number }>`
    select ${AVERAGE_RATING} as rating, count(*)::int as review_count
    from reviews where target_type = ${type} and target_id = ${id} and not hidden`.execute(db);
  const row = rows[0];
  return { rating: Number(row?.rating ?? 0), review_count: Number(row?.review_count ?? 0) };
}

async function currentFigure(db: Kysely<DB>, type: TargetType, id: number): Promise<RatingFigure | null> {
  const table = type === 'cat' ? 'cats' : 'bodegas';
  const row = await db
    .selectFrom(table)
    .select(['rating', 'review_count'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { rating: Number(row.rating), review_count: Number(row.review_count) } : null;
}

/** Recomputes one target's rating; returns the figure it recorded, or null when nothing changed. */
export async function recomputeRating(
  db: Kysely<DB>,
  store: EventStore,
  type: TargetType,
  id: number,
  metadata: EventMetadata = {},
): Promise<RatingFigure | null> {
  // Jobs for one target take turns (ratingLock), with the writer gate in the first statement.
  const locks = [ratingLock({ type, id })];
  return writeTransaction(
    db,
    async (tx) => {
      const { trx } = tx;
      const current = await currentFigure(trx, type, id);
      if (!current) return null;
      const figure = await computeRating(trx, type, id);
      if (figure.rating === current.rating && figure.review_count === current.review_count) return null;
      await store.append(
        tx,
        streamIds.rating(type, id),
        'any',
        [{ type: 'RatingRecomputed', data: { target_type: type, target_id: id, ...figure } }],
        { metadata },
      );
      return figure;
    },
    { locks },
  );
}

/**
 * Job ids carry the log's incarnation and the position of the event that caused them
 * (`<incarnation>-<position>-ratings`, see jobsFor); ids queued before incarnations had no prefix.
 */
export function causedBy(jobId: string): EventMetadata {
  const match = /^(?:[0-9a-z]+-)?(\d+)-ratings$/.exec(jobId);
  return match ? { causation_position: Number(match[1]) } : {};
}

export function createRatingsProcessor(services: Pick<Services, 'database' | 'store'>): Processor<'ratings'> {
  return async (data, job) => {
    const { target_type: type, target_id: id } = data;
    if ((type !== 'cat' && type !== 'bodega') || !Number.isSafeInteger(id) || id <= 0)
      throw new UnrecoverableJobError(`not a rating target: ${JSON.stringify(data)}`);
    await recomputeRating(services.database.db, services.store, type, id, causedBy(job.id));
  };
}
