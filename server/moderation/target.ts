// A moderated target (a cat, bodega, review or photo): its moderation stream folded by evolve into
// who has reported it and whether it is hidden, and the pure decisions on a report and on a
// moderator's action.
import { Conflict, Invalid, NotFound } from '../errors.ts';
import type { ModerationTargetType, ReportReason, TargetType } from '../db/schema.ts';
import { shownTo, type Reader } from '../events/targets.ts';
import type { NewEvent, RecordedEvent, Role } from '../events/types.ts';

export const MODERATION_EVENTS = [
  'ContentReported',
  'ContentHidden',
  'ContentRestored',
  'ModerationDecided',
] as const;
export type ModerationEventType = (typeof MODERATION_EVENTS)[number];
export type ModerationEvent = NewEvent<ModerationEventType>;

export type ModerationTarget = { type: ModerationTargetType; id: number };
export type ModerationAction = 'hide' | 'restore' | 'dismiss';

export type ModerationState = {
  /** Everyone who ever reported it: one report per person and target. */
  reporters: ReadonlySet<number>;
  /** Reporters whose reports no moderator has decided on yet. */
  openReporters: ReadonlySet<number>;
  /** Those of them whose reports count toward hiding it (see decideReport). */
  openCounted: ReadonlySet<number>;
  hidden: boolean;
  /** Hidden by reports reaching the threshold; a dismissal restores it. */
  hiddenByReports: boolean;
};

export const INITIAL_STATE: ModerationState = {
  reporters: new Set(),
  openReporters: new Set(),
  openCounted: new Set(),
  hidden: false,
  hiddenByReports: false,
};

/** What a decision needs to know of the content itself (null when it does not exist). */
export type ContentFacts = {
  owner: number | null;
  parent: { type: TargetType; id: number } | null;
  /** Hidden by moderation: itself, or for a cat with its bodega. */
  hidden: boolean;
  /** A review's or photo's cat or bodega, which hides it when hidden (null for a cat or bodega). */
  parentRow: { hidden: boolean; created_by: number | null } | null;
} | null;

const NAMES: Record<ModerationTargetType, string> = {
  cat: 'Cat',
  bodega: 'Bodega',
  review: 'Review',
  photo: 'Photo',
};

export function contentNotFound(target: ModerationTarget): NotFound {
  return new NotFound(`${NAMES[target.type]} not found`);
}

/**
 * Whether the reader may see the content, by the rule every read follows (shownTo): a review or
 * photo is hidden also when its cat or bodega is. (A cat's own flag already counts its bodega's.)
 */
function visibleTo(reader: Reader, facts: NonNullable<ContentFacts>): boolean {
  if (!shownTo(reader, { hidden: facts.hidden, created_by: facts.owner })) return false;
  return facts.parentRow === null || shownTo(reader, facts.parentRow);
}

export function evolveModeration(
  state: ModerationState,
  event: RecordedEvent<ModerationEventType> | ModerationEvent,
): ModerationState {
  switch (event.type) {
    case 'ContentReported': {
      const user = event.data.user_id;
      return {
        ...state,
        reporters: new Set([...state.reporters, user]),
        openReporters: new Set([...state.openReporters, user]),
        openCounted: event.data.counts_toward_hide
          ? new Set([...state.openCounted, user])
          : state.openCounted,
      };
    }
    case 'ContentHidden':
      return { ...state, hidden: true, hiddenByReports: event.data.by === 'reports' };
    case 'ContentRestored':
      return { ...state, hidden: false, hiddenByReports: false };
    case 'ModerationDecided':
      // A decision closes the open reports; after it, only a moderator's hide holds the target.
      return { ...state, openReporters: new Set(), openCounted: new Set(), hiddenByReports: false };
  }
}

export type FileReport = {
  userId: number;
  role: Role;
  target: ModerationTarget;
  reason: ReportReason;
  comment: string;
  /** Distinct open reporters whose reports count that hide a target (REPORTS_TO_HIDE). */
  threshold: number;
};

/**
 * The reporter as the command found them when the report came: `established` when their account is
 * old enough (REPORTER_MIN_ACCOUNT_AGE_HOURS) and has something of theirs that moderation has not
 * hidden (see moderation/reporters.ts).
 */
export type ReporterStanding = { established: boolean };

/**
 * Whether a report counts toward hiding: a moderator's, or an established account's. Accounts made
 * on the spot (or kept unused) could otherwise hide anything three at a time; their reports still
 * reach the moderators' queue.
 */
export function countsTowardHide(role: Role, standing: ReporterStanding): boolean {
  return role === 'moderator' || standing.established;
}

function contentEvent(target: ModerationTarget, facts: NonNullable<ContentFacts>) {
  return {
    target_type: target.type,
    target_id: target.id,
    parent_type: facts.parent?.type ?? null,
    parent_id: facts.parent?.id ?? null,
  };
}

export function decideReport(
  command: FileReport,
  state: ModerationState,
  facts: ContentFacts,
  standing: ReporterStanding,
  reportId: number,
): ModerationEvent[] {
  const { target, userId } = command;
  // Hidden content is missing to who may not see it: a report on it answers as for none at all.
  if (!facts || !visibleTo({ id: userId, role: command.role }, facts)) throw contentNotFound(target);
  if (facts.owner === userId) {
    const message = `You cannot report your own ${target.type}`;
    throw new Invalid(message, { target_id: message });
  }
  if (state.reporters.has(userId)) {
    throw new Conflict(`You have already reported this ${target.type}`, 'already_reported');
  }
  // Decided now and recorded in the event: replay and later reports read it, never the clock.
  const counts = countsTowardHide(command.role, standing);
  const events: ModerationEvent[] = [
    {
      type: 'ContentReported',
      data: {
        report_id: reportId,
        target_type: target.type,
        target_id: target.id,
        user_id: userId,
        reason: command.reason,
        comment: command.comment,
        counts_toward_hide: counts,
      },
    },
  ];
  if (counts && !state.hidden && state.openCounted.size + 1 >= command.threshold) {
    events.push({ type: 'ContentHidden', data: { ...contentEvent(target, facts), by: 'reports' } });
  }
  return events;
}

export type Decide = {
  moderatorId: number;
  target: ModerationTarget;
  action: ModerationAction;
  note: string;
};

export function decideAction(
  command: Decide,
  state: ModerationState,
  facts: ContentFacts,
): ModerationEvent[] {
  const { target, action } = command;
  if (!facts) throw contentNotFound(target);
  const events: ModerationEvent[] = [
    {
      type: 'ModerationDecided',
      data: {
        target_type: target.type,
        target_id: target.id,
        action,
        moderator_id: command.moderatorId,
        note: command.note,
      },
    },
  ];
  const content = contentEvent(target, facts);
  if (action === 'hide' && !state.hidden) {
    events.push({ type: 'ContentHidden', data: { ...content, by: 'moderator' } });
  }
  const restore = action === 'restore' ? state.hidden : action === 'dismiss' && state.hiddenByReports;
  if (restore) events.push({ type: 'ContentRestored', data: content });
  return events;
}
