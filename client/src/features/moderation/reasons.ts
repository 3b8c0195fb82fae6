// How the product names what can be reported and why, and what a refused report tells the person.
import type { ModerationTargetType, QueueItem, ReportReason } from '../../../../contract/moderation.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';

export type { ModerationTargetType, QueueItem, ReportReason };

export const REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  offensive: 'Offensive',
  wrong_info: 'Wrong info',
  not_a_cat: 'Not a cat',
  other: 'Other',
};

export const REASONS = Object.keys(REASON_LABELS) as ReportReason[];

export const KIND_LABELS: Record<ModerationTargetType, string> = {
  cat: 'Cat',
  bodega: 'Bodega',
  review: 'Review',
  photo: 'Photo',
};

export const REPORT_THANKS = 'Thanks — a moderator will take a look.';
export const ALREADY_REPORTED = 'You already reported this.';
export const HIDDEN_BY_MODERATORS = 'Hidden by moderators';

/** What the dialog says when the server refuses a report. */
export function reportErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 409) return ALREADY_REPORTED;
  return errorMessage(error, 'Failed to send the report. Please try again.');
}

/** A queue item's reasons, most given first, with their human labels: "Spam (2), Offensive (1)". */
export function reasonCounts(
  reasons: QueueItem['reasons'],
): { reason: string; label: string; count: number }[] {
  return Object.entries(reasons)
    .map(([reason, count]) => ({
      reason,
      label: REASON_LABELS[reason as ReportReason] ?? reason,
      count,
    }))
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}
