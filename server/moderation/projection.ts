// The moderation read model: every report (open until a moderator decides on its target), each
// reported or decided target's state, and who the moderators are.
import type { Kysely } from 'kysely';
import type { DB, ModerationTargetType } from '../db/schema.ts';
import type { Projection } from '../events/projection.ts';
import { assertNever, type RecordedEvent } from '../events/types.ts';

const HANDLES = [
  'ContentReported',
  'ContentHidden',
  'ContentRestored',
  'ModerationDecided',
  'RoleChanged',
  'AccountDeleted',
] as const;
type Handled = (typeof HANDLES)[number];

type ItemChange = { hidden?: boolean; hidden_by_reports?: boolean; decided_at?: Date };

/** Creates the target's row if it has none yet, and applies the change. */
async function changeItem(
  trx: Kysely<DB>,
  target: { target_type: ModerationTargetType; target_id: number },
  change: ItemChange,
): Promise<void> {
  const row = {
    target_type: target.target_type,
    target_id: target.target_id,
    hidden: false,
    hidden_by_reports: false,
    decided_at: null,
    ...change,
  };
  await trx
    .insertInto('moderation_items')
    .values(row)
    .onConflict((oc) =>
      Object.keys(change).length === 0
        ? oc.columns(['target_type', 'target_id']).doNothing()
        : oc.columns(['target_type', 'target_id']).doUpdateSet(change),
    )
    .execute();
}

export const moderationProjection: Projection = {
  name: 'moderation',
  tables: ['reports', 'moderation_items', 'moderators'],
  handles: HANDLES,
  async apply(trx, e) {
    const event = e as RecordedEvent<Handled>;
    switch (event.type) {
      case 'ContentReported': {
        const d = event.data;
        await trx
          .insertInto('reports')
          .values({
            id: d.report_id,
            target_type: d.target_type,
            target_id: d.target_id,
            user_id: d.user_id,
            reason: d.reason,
            comment: d.comment,
            open: true,
            created_at: event.recordedAt,
          })
          .execute();
        return changeItem(trx, d, {});
      }
      case 'ContentHidden':
        return changeItem(trx, event.data, { hidden: true, hidden_by_reports: event.data.by === 'reports' });
      case 'ContentRestored':
        return changeItem(trx, event.data, { hidden: false, hidden_by_reports: false });
      case 'ModerationDecided': {
        const d = event.data;
        await trx
          .updateTable('reports')
          .set({ open: false })
          .where('target_type', '=', d.target_type)
          .where('target_id', '=', d.target_id)
          .where('open', '=', true)
          .execute();
        return changeItem(trx, d, { hidden_by_reports: false, decided_at: event.recordedAt });
      }
      case 'RoleChanged': {
        const { user_id, role } = event.data;
        if (role === 'moderator') {
          await trx
            .insertInto('moderators')
            .values({ user_id })
            .onConflict((oc) => oc.doNothing())
            .execute();
        } else {
          await trx.deleteFrom('moderators').where('user_id', '=', user_id).execute();
        }
        return;
      }
      case 'AccountDeleted':
        // The person's reports go with their account (their comments could not be read anyway);
        // what the reports had hidden stays hidden until a moderator decides.
        await trx.deleteFrom('reports').where('user_id', '=', event.data.user_id).execute();
        await trx.deleteFrom('moderators').where('user_id', '=', event.data.user_id).execute();
        return;
      default:
        assertNever(event);
    }
  },
};
