// A person's reports, for their account's deletion and export (accounts/personal-data.ts).
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

export const moderationPersonalData = {
  /** Nothing here: the moderation projection takes the person's reports on AccountDeleted. */
  async erase() {},

  async export(trx: Kysely<DB>, userId: number) {
    const reports = await trx
      .selectFrom('reports')
      .select(['id', 'target_type', 'target_id', 'reason', 'comment', 'open', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    return {
      reports: reports.map((r) => ({
        id: Number(r.id),
        target_type: r.target_type,
        target_id: Number(r.target_id),
        reason: r.reason,
        comment: r.comment,
        open: r.open,
        created_at: new Date(r.created_at).toISOString(),
      })),
    };
  },
};
