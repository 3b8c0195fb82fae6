// The moderation decisions: given a target's past events, when a report or a moderator's action
// comes, then these events (or this error).
import { describe, expect, it } from 'vitest';
import { Conflict, Invalid, NotFound } from '../../../server/errors.ts';
import {
  INITIAL_STATE,
  decideAction,
  decideReport,
  evolveModeration,
  type ContentFacts,
  type ModerationAction,
  type ModerationEvent,
  type ModerationState,
} from '../../../server/moderation/target.ts';

const review = { type: 'review' as const, id: 7 };
const facts: ContentFacts = {
  owner: 1,
  parent: { type: 'cat', id: 3 },
  hidden: false,
  parentRow: { hidden: false, created_by: 5 },
};
const content = { target_type: 'review', target_id: 7, parent_type: 'cat', parent_id: 3 };
const THRESHOLD = 3;

function fold(events: ModerationEvent[]): ModerationState {
  return events.reduce(evolveModeration, INITIAL_STATE);
}

const established = { established: true };
const newcomer = { established: false };

function report(
  userId: number,
  state: ModerationState,
  threshold = THRESHOLD,
  standing = established,
): ModerationEvent[] {
  const command = {
    userId,
    role: 'member' as const,
    target: review,
    reason: 'spam' as const,
    comment: '',
    threshold,
  };
  return decideReport(command, state, facts, standing, 100 + userId);
}

/** The state after each of these reports, one after the other. */
function fileAll(state: ModerationState, ...reports: [number, typeof established][]): ModerationState {
  return reports.reduce(
    (s, [user, standing]) => report(user, s, THRESHOLD, standing).reduce(evolveModeration, s),
    state,
  );
}

/** The state after each of these people reported the review, one after the other. */
function reportedBy(...users: number[]): ModerationState {
  return users.reduce((state, user) => report(user, state).reduce(evolveModeration, state), INITIAL_STATE);
}

function act(action: ModerationAction, state: ModerationState): ModerationEvent[] {
  return decideAction({ moderatorId: 9, target: review, action, note: '' }, state, facts);
}

const types = (events: ModerationEvent[]) => events.map((e) => e.type);

describe('reports', () => {
  it('records a report with its id, reporter, reason and comment', () => {
    const command = {
      userId: 2,
      role: 'member' as const,
      target: review,
      reason: 'offensive' as const,
      comment: 'Rude',
      threshold: 3,
    };
    expect(decideReport(command, INITIAL_STATE, facts, established, 55)).toEqual([
      {
        type: 'ContentReported',
        data: {
          report_id: 55,
          target_type: 'review',
          target_id: 7,
          user_id: 2,
          reason: 'offensive',
          comment: 'Rude',
          counts_toward_hide: true,
        },
      },
    ]);
  });

  it('hides the target when the threshold-th different person reports it, not before', () => {
    expect(types(report(3, reportedBy(2)))).toEqual(['ContentReported']);
    expect(report(4, reportedBy(2, 3))).toEqual([
      expect.objectContaining({ type: 'ContentReported' }),
      { type: 'ContentHidden', data: { ...content, by: 'reports' } },
    ]);
    expect(fold([...report(2, INITIAL_STATE, 1)])).toMatchObject({ hidden: true, hiddenByReports: true });
  });

  it('refuses a second report from the same person (409), so one person never counts twice', () => {
    expect(() => report(2, reportedBy(2))).toThrow(Conflict);
    // Even after a moderator decided on the first one.
    const decided = act('dismiss', reportedBy(2)).reduce(evolveModeration, reportedBy(2));
    expect(() => report(2, decided)).toThrow(Conflict);
  });

  it('counts only reports still open: after a dismissal the count starts again', () => {
    const state = reportedBy(2, 3);
    const dismissed = act('dismiss', state).reduce(evolveModeration, state);
    expect(types(report(4, dismissed))).toEqual(['ContentReported']);
  });

  it('does not hide what is already hidden', () => {
    const hidden = act('hide', INITIAL_STATE).reduce(evolveModeration, INITIAL_STATE);
    const withTwo = [2, 3].reduce((s, u) => report(u, s).reduce(evolveModeration, s), hidden);
    expect(types(report(4, withTwo))).toEqual(['ContentReported']);
  });

  it('refuses a report of your own content (400) and of content that does not exist (404)', () => {
    expect(() => report(1, INITIAL_STATE)).toThrow(Invalid);
    const command = {
      userId: 2,
      role: 'member' as const,
      target: review,
      reason: 'spam' as const,
      comment: '',
      threshold: 3,
    };
    expect(() => decideReport(command, INITIAL_STATE, null, established, 1)).toThrow(NotFound);
  });

  it('answers 404 for content hidden from the reporter, itself or through what it hangs off', () => {
    const command = {
      userId: 2,
      role: 'member' as const,
      target: review,
      reason: 'spam' as const,
      comment: '',
      threshold: 3,
    };
    const missing = new NotFound('Review not found');
    const hiddenItself = { ...facts!, hidden: true };
    const hiddenParent = { ...facts!, parentRow: { hidden: true, created_by: 5 } };
    for (const hidden of [hiddenItself, hiddenParent]) {
      expect(() => decideReport(command, INITIAL_STATE, hidden, established, 1)).toThrow(missing);
      // Moderators see hidden content, and may report it.
      const byModerator = decideReport(
        { ...command, role: 'moderator' },
        INITIAL_STATE,
        hidden,
        established,
        1,
      );
      expect(types(byModerator)).toEqual(['ContentReported']);
    }
    // The creator of the hidden cat sees it, and so its reviews.
    expect(
      types(decideReport({ ...command, userId: 5 }, INITIAL_STATE, hiddenParent, established, 1)),
    ).toEqual(['ContentReported']);
  });
});

describe('whose reports count toward hiding', () => {
  it('records whether a report counts: an established account’s or a moderator’s, not a newcomer’s', () => {
    const counts = (events: ModerationEvent[]) =>
      events[0]!.type === 'ContentReported' && events[0]!.data.counts_toward_hide;
    expect(counts(report(2, INITIAL_STATE, THRESHOLD, established))).toBe(true);
    expect(counts(report(2, INITIAL_STATE, THRESHOLD, newcomer))).toBe(false);
    const command = {
      userId: 2,
      role: 'moderator' as const,
      target: review,
      reason: 'spam' as const,
      comment: '',
      threshold: 3,
    };
    expect(counts(decideReport(command, INITIAL_STATE, facts, newcomer, 1))).toBe(true);
  });

  it('never hides on newcomers’ reports, however many; they stay open for the moderators', () => {
    const state = fileAll(INITIAL_STATE, [2, newcomer], [3, newcomer], [4, newcomer], [6, newcomer]);
    expect(state).toMatchObject({ hidden: false });
    expect(state.openReporters.size).toBe(4);
    expect(state.openCounted.size).toBe(0);
    // Two established reports with them are still two: not enough.
    const withTwo = fileAll(state, [7, established], [8, established]);
    expect(withTwo.hidden).toBe(false);
    expect(report(10, withTwo, THRESHOLD, newcomer)).toHaveLength(1);
    // The third established one hides it.
    expect(types(report(9, withTwo))).toEqual(['ContentReported', 'ContentHidden']);
  });

  it('folds what the event recorded, so a replay gives the same state whatever the clock', () => {
    const events = [
      ...report(2, INITIAL_STATE, THRESHOLD, newcomer),
      ...report(3, INITIAL_STATE, THRESHOLD, established),
    ];
    const folded = fold(events);
    expect([...folded.openCounted]).toEqual([3]);
    expect([...folded.openReporters].sort()).toEqual([2, 3]);
    // A decision closes both.
    const decided = act('dismiss', folded).reduce(evolveModeration, folded);
    expect(decided.openCounted.size + decided.openReporters.size).toBe(0);
  });
});

describe('moderator actions', () => {
  it('hide, then hide again: the second changes nothing but is recorded as a decision', () => {
    expect(act('hide', INITIAL_STATE)).toEqual([
      {
        type: 'ModerationDecided',
        data: { target_type: 'review', target_id: 7, action: 'hide', moderator_id: 9, note: '' },
      },
      { type: 'ContentHidden', data: { ...content, by: 'moderator' } },
    ]);
    const hidden = fold(act('hide', INITIAL_STATE));
    expect(hidden).toMatchObject({ hidden: true, hiddenByReports: false });
    expect(types(act('hide', hidden))).toEqual(['ModerationDecided']);
  });

  it('restore brings hidden content back, and restoring visible content changes nothing', () => {
    const hidden = fold(act('hide', INITIAL_STATE));
    expect(types(act('restore', hidden))).toEqual(['ModerationDecided', 'ContentRestored']);
    expect(fold([...act('hide', INITIAL_STATE), ...act('restore', hidden)]).hidden).toBe(false);
    expect(types(act('restore', INITIAL_STATE))).toEqual(['ModerationDecided']);
  });

  it('dismiss restores content the reports hid and closes them', () => {
    const byReports = reportedBy(2, 3, 4);
    expect(byReports).toMatchObject({ hidden: true, hiddenByReports: true });
    const events = act('dismiss', byReports);
    expect(types(events)).toEqual(['ModerationDecided', 'ContentRestored']);
    const after = events.reduce(evolveModeration, byReports);
    expect(after).toMatchObject({ hidden: false, hiddenByReports: false });
    expect(after.openReporters.size).toBe(0);
    expect(after.reporters.size).toBe(3);
  });

  it('dismiss leaves content a moderator hid hidden, even with reports on it', () => {
    const hidden = fold(act('hide', INITIAL_STATE));
    const reported = report(2, hidden).reduce(evolveModeration, hidden);
    expect(types(act('dismiss', reported))).toEqual(['ModerationDecided']);
  });

  it('a moderator’s hide of content the reports hid is no longer undone by a dismissal', () => {
    const byReports = reportedBy(2, 3, 4);
    const kept = act('hide', byReports).reduce(evolveModeration, byReports);
    expect(kept).toMatchObject({ hidden: true, hiddenByReports: false });
    expect(types(act('dismiss', kept))).toEqual(['ModerationDecided']);
  });

  it('answers 404 for content that does not exist', () => {
    expect(() =>
      decideAction({ moderatorId: 9, target: review, action: 'hide', note: '' }, INITIAL_STATE, null),
    ).toThrow(NotFound);
  });
});
