// The photos' unfinished work, for the reconciler (server/queue/reconciler.ts): a photo still
// processing long after its upload, whose job was lost.
import { sql } from 'kysely';
import type { ReconcileRule } from '../queue/reconciler.ts';

export function stalePhotosRule(staleMinutes: number): ReconcileRule {
  return {
    async find(trx) {
      const { rows } = await sql<{ id: number }>`
        select id from photos
        where status = 'processing' and created_at < now() - ${staleMinutes} * interval '1 minute'
        order by id limit 1000`.execute(trx);
      return rows.map(({ id }) => ({ queue: 'photos', id: String(id), data: { photo_id: Number(id) } }));
    },
  };
}
