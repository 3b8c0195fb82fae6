// Reports and moderation (API.md, "Reports and moderation").
import { Type, type Static } from '@sinclair/typebox';
import { Id, Nullable, Pagination } from './common.ts';
import { TEXT_LIMITS } from './text-limits.ts';

export const ModerationTargetType = Type.Union([
  Type.Literal('cat'),
  Type.Literal('bodega'),
  Type.Literal('review'),
  Type.Literal('photo'),
]);
export type ModerationTargetType = Static<typeof ModerationTargetType>;

export const REPORT_REASONS = ['spam', 'offensive', 'wrong_info', 'not_a_cat', 'other'] as const;
export const ReportReason = Type.Union(REPORT_REASONS.map((r) => Type.Literal(r)));
export type ReportReason = (typeof REPORT_REASONS)[number];

export const NewReport = Type.Object(
  {
    target_type: ModerationTargetType,
    target_id: Id,
    reason: ReportReason,
    comment: Type.Optional(Nullable(Type.String({ maxGraphemes: TEXT_LIMITS.reportComment }))),
  },
  { additionalProperties: false },
);
export type NewReport = Static<typeof NewReport>;

export const Report = Type.Object({
  id: Type.Integer(),
  target_type: ModerationTargetType,
  target_id: Type.Integer(),
  reason: ReportReason,
  created_at: Type.String(),
});
export type Report = Static<typeof Report>;

export const ReportResponse = Type.Object({ report: Report });
export type ReportResponse = Static<typeof ReportResponse>;

export const QueueItem = Type.Object({
  target_type: ModerationTargetType,
  target_id: Type.Integer(),
  /** The content's name: a cat's or bodega's name, a review's or photo's text. */
  title: Type.String(),
  /** Where the content is seen: the cat or bodega page it belongs to (the queue links to it). */
  url: Type.String(),
  /** A ready photo's small variant, so the queue shows the photo itself; null for anything else. */
  thumb_url: Nullable(Type.String()),
  hidden: Type.Boolean(),
  reports: Type.Integer(),
  reasons: Type.Record(Type.String(), Type.Integer()),
  first_reported_at: Nullable(Type.String()),
  last_reported_at: Nullable(Type.String()),
});
export type QueueItem = Static<typeof QueueItem>;

export const QueueStatus = Type.Union([Type.Literal('open'), Type.Literal('resolved')]);
export type QueueStatus = Static<typeof QueueStatus>;

export const QueueResponse = Type.Object({ items: Type.Array(QueueItem), pagination: Pagination });
export type QueueResponse = Static<typeof QueueResponse>;

export const MODERATION_ACTIONS = ['hide', 'restore', 'dismiss'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export const Decision = Type.Object(
  {
    action: Type.Union(MODERATION_ACTIONS.map((a) => Type.Literal(a))),
    note: Type.Optional(Nullable(Type.String({ maxGraphemes: TEXT_LIMITS.moderationNote }))),
  },
  { additionalProperties: false },
);
export type Decision = Static<typeof Decision>;

export const DecisionResponse = Type.Object({ item: QueueItem });
export type DecisionResponse = Static<typeof DecisionResponse>;
