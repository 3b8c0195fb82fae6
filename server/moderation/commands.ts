// Reports and moderators' decisions: each holds the content (so it cannot be deleted under the
// decision), takes the target's moderation stream in turn, folds it, and appends what the decider
// (target.ts) decided. The projections hide or restore the content in the same commit.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { moderationLock, reporterLock, targetLock, type Lock } from '../events/locks.ts';
import { nextId, readStream, type EventStore, type Write } from '../events/store.ts';
import { findTarget } from '../events/targets.ts';
import { streamIds, type EventMetadata, type RecordedEvent } from '../events/types.ts';
import { refuseOverDailyLimit, reporterStanding, type ReportRules } from './reporters.ts';
import {
  decideAction,
  decideReport,
  evolveModeration,
  INITIAL_STATE,
  MODERATION_EVENTS,
  type ContentFacts,
  type Decide,
  type FileReport,
  type ModerationEventType,
  type ModerationState,
  type ModerationTarget,
} from './target.ts';

/**
 * The locks a report or decision on `target` takes: its moderation stream, taken in turn (one
 * decision at a time), and a cat's or bodega's target lock, shared (see holdContent).
 */
function contentLocks(target: ModerationTarget): Lock[] {
  const locks = [moderationLock(target.type, target.id)];
  if (target.type === 'cat' || target.type === 'bodega')
    locks.push(targetLock({ type: target.type, id: target.id }, 'shared'));
  return locks;
}

/**
 * The content's owner, what it hangs off and whether moderation hid either, held until commit: a
 * cat or bodega through its target lock (see contentLocks) and a key-share lock on its row, a
 * review or photo by a key-share lock on its row. A bodega's stream row is locked too, so a cat
 * added to it meanwhile lands before or after the hiding, never across it.
 */
async function holdContent(trx: Kysely<DB>, target: ModerationTarget): Promise<ContentFacts> {
  switch (target.type) {
    case 'cat':
    case 'bodega': {
      const table = target.type === 'cat' ? 'cats' : 'bodegas';
      const row = await trx
        .selectFrom(table)
        .select([
          'created_by',
          'hidden',
          target.type === 'cat' ? sql<number>`bodega_id`.as('parent') : sql<null>`null`.as('parent'),
        ])
        .where('id', '=', target.id)
        .forKeyShare()
        .executeTakeFirst();
      if (!row) return null;
      if (target.type === 'bodega') {
        await trx
          .selectFrom('streams')
          .select('version')
          .where('stream_id', '=', streamIds.bodega(target.id))
          .forUpdate()
          .execute();
      }
      return {
        owner: row.created_by === null ? null : Number(row.created_by),
        parent: row.parent === null ? null : { type: 'bodega', id: Number(row.parent) },
        hidden: row.hidden,
        parentRow: null,
      };
    }
    case 'review':
    case 'photo': {
      const row =
        target.type === 'review'
          ? await trx
              .selectFrom('reviews')
              .select(['user_id as owner', 'target_type', 'target_id', 'hidden'])
              .where('id', '=', target.id)
              .forKeyShare()
              .executeTakeFirst()
          : await trx
              .selectFrom('photos')
              .select(['uploaded_by as owner', 'target_type', 'target_id', 'hidden'])
              .where('id', '=', target.id)
              .forKeyShare()
              .executeTakeFirst();
      if (!row) return null;
      const parent = { type: row.target_type, id: Number(row.target_id) };
      // Its cat or bodega is there: deleting it deletes its reviews and photos first.
      const parentRow = await findTarget(trx, parent);
      return {
        owner: row.owner === null ? null : Number(row.owner),
        parent,
        hidden: row.hidden,
        parentRow: parentRow && { hidden: parentRow.hidden, created_by: parentRow.created_by },
      };
    }
  }
}

/**
 * The target's moderation stream, folded, read under its lock (contentLocks). Run through
 * runCommand, which holds the author's account before that: their comment or note is sealed under
 * their key, which locks their account row late, while an account deletion locks that row first and
 * then the rows of the person's reviews and photos this holds (see accountLock).
 */
async function loadModeration(
  trx: Kysely<DB>,
  target: ModerationTarget,
): Promise<{ state: ModerationState; version: number }> {
  const stream = streamIds.moderation(target.type, target.id);
  const events = (await readStream(trx, stream, MODERATION_EVENTS)) as RecordedEvent<ModerationEventType>[];
  return {
    state: events.reduce(evolveModeration, INITIAL_STATE),
    version: events.at(-1)?.streamVersion ?? 0,
  };
}

export type FiledReport = { id: number; createdAt: Date };

/**
 * Files a report: refused over the reporter's daily limit (429) before anything else, then decided
 * on the target's stream with the reporter's standing as it is now (see decideReport). The
 * reporter's lock comes first: one report by a person at a time.
 */
export function fileReport(
  store: EventStore,
  command: FileReport,
  rules: ReportRules,
  metadata: EventMetadata,
): Write<FiledReport> {
  return {
    locks: [reporterLock(command.userId), ...contentLocks(command.target)],
    async run(tx) {
      const { trx } = tx;
      const { state, version } = await loadModeration(trx, command.target);
      await refuseOverDailyLimit(trx, command.userId, rules);
      const facts = await holdContent(trx, command.target);
      // A refused report may use up an id: ids only need to be unique.
      const standing = facts ? await reporterStanding(trx, command.userId, rules) : { established: false };
      const reportId = facts ? await nextId(trx, 'report_ids') : 0;
      const events = decideReport(command, state, facts, standing, reportId);
      const stream = streamIds.moderation(command.target.type, command.target.id);
      const appended = await store.append(tx, stream, version, events, { metadata });
      return { id: reportId, createdAt: appended.events[0]!.recordedAt };
    },
  };
}

export function decide(store: EventStore, command: Decide, metadata: EventMetadata): Write<void> {
  return {
    locks: contentLocks(command.target),
    async run(tx) {
      const { state, version } = await loadModeration(tx.trx, command.target);
      const facts = await holdContent(tx.trx, command.target);
      const events = decideAction(command, state, facts);
      const stream = streamIds.moderation(command.target.type, command.target.id);
      await store.append(tx, stream, version, events, { metadata });
    },
  };
}
