// The reconciler re-drives work the log says is unfinished, whatever happened to the job that
// should have done it (a queue emptied by an operator, a Redis restored from an old snapshot, a bug
// fixed since): photos still `processing` long after their upload, and ratings that differ from
// their reviews. It only adds jobs; the processors are idempotent, so a job it adds for work that
// finishes meanwhile is harmless.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../server/db/schema.ts';
import type { Services } from '../server/services.ts';
import type { JobRequest } from '../server/queue/jobs.ts';
import { AVERAGE_RATING } from '../server/reviews/ratings.ts';

export type ReconcileResult = { photos: number; ratings: number };

export type Reconciler = {
  /** One pass: finds unfinished work and queues a job for each piece. */
  run(): Promise<ReconcileResult>;
};

export type ReconcilerOptions = {
  /** A photo still processing this long after its upload is re-driven. */
  stalePhotoMinutes?: number;
};

/** Lock key shared by every worker process, so one pass runs at a time across them. */
const LOCK_KEY = 'bodega-reconciler';

export function createReconciler(
  services: Pick<Services, 'database' | 'queue'>,
  options: ReconcilerOptions = {},
): Reconciler {
  const { db } = services.database;
  const staleMinutes = options.stalePhotoMinutes ?? 10;
  // A rating may lag its reviews for a moment while its job is queued; only a difference seen on
  // two passes in a row is unfinished work.
  let seenBefore = new Set<string>();

  async function differingRatings(
    trx: Kysely<DB>,
  ): Promise<{ target_type: 'cat' | 'bodega'; target_id: number }[]> {
    const { rows } = await sql<{ target_type: 'cat' | 'bodega'; target_id: number }>`
      with figures as (
        select target_type, target_id, ${AVERAGE_RATING} as rating, count(*)::int as n
        from reviews group by target_type, target_id
      )
      select 'cat' as target_type, c.id as target_id
      from cats c left join figures f on f.target_type = 'cat' and f.target_id = c.id
      where c.review_count <> coalesce(f.n, 0) or c.rating <> coalesce(f.rating, 0)
      union all
      select 'bodega', b.id
      from bodegas b left join figures f on f.target_type = 'bodega' and f.target_id = b.id
      where b.review_count <> coalesce(f.n, 0) or b.rating <> coalesce(f.rating, 0)`.execute(trx);
    return rows.map((r) => ({ target_type: r.target_type, target_id: Number(r.target_id) }));
  }

  return {
    async run() {
      const found = await db.transaction().execute(async (trx) => {
        const { rows: locked } = await sql<{ ok: boolean }>`
          select pg_try_advisory_xact_lock(hashtextextended(${LOCK_KEY}, 0)) as ok`.execute(trx);
        if (!locked[0]?.ok) return null;
        const { rows: photos } = await sql<{ id: number }>`
          select id from photos
          where status = 'processing' and created_at < now() - ${staleMinutes} * interval '1 minute'
          order by id limit 1000`.execute(trx);
        return { photos: photos.map((p) => Number(p.id)), differing: await differingRatings(trx) };
      });
      if (!found) return { photos: 0, ratings: 0 };
      const now = new Set(found.differing.map((r) => `${r.target_type}/${r.target_id}`));
      const ratings = found.differing.filter((r) => seenBefore.has(`${r.target_type}/${r.target_id}`));
      seenBefore = now;
      const stamp = Date.now();
      const jobs: JobRequest[] = [
        ...found.photos.map((id): JobRequest => ({
          queue: 'photos',
          id: `reconcile-${stamp}-${id}`,
          data: { photo_id: id },
        })),
        ...ratings.map((r): JobRequest => ({
          queue: 'ratings',
          id: `reconcile-${stamp}-${r.target_type}-${r.target_id}`,
          data: r,
        })),
      ];
      if (jobs.length > 0) await services.queue.add(jobs);
      return { photos: found.photos.length, ratings: ratings.length };
    },
  };
}
