// The ratings' unfinished work, for the reconciler (server/queue/reconciler.ts): a cat's or
// bodega's rating that differs from its reviews, by the average the ratings job records.
import { sql } from 'kysely';
import type { ReconcileRule } from '../queue/reconciler.ts';
import { AVERAGE_RATING } from './ratings.ts';

type Differing = { target_type: 'cat' | 'bodega'; target_id: number };

export const differingRatingsRule: ReconcileRule = {
  // A rating may lag its reviews for a moment while its job is queued.
  confirmTwice: true,
  async find(trx) {
    const { rows } = await sql<Differing>`
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
    return rows.map((r) => {
      const data = { target_type: r.target_type, target_id: Number(r.target_id) };
      return { queue: 'ratings', id: `${data.target_type}-${data.target_id}`, data };
    });
  },
};
