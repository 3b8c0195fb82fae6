// Every domain event of the product, as a string-tagged union. Type names never change; a change
// of shape bumps the schema version and registers an upcaster (see upcasters.ts).
import type { ModerationTargetType, ReportReason, TargetType } from '../db/schema.ts';

export type BodegaFields = {
  name: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  description: string;
  phone: string;
  hours: string;
};

export type CatFields = {
  name: string;
  description: string;
  age: string;
  breed: string;
  sex: '' | 'Male' | 'Female' | 'Unknown';
  personality: string;
  color: string;
  weight: string;
  is_friendly: boolean;
};

export type EventMap = {
  BodegaAdded: { bodega_id: number; created_by: number | null } & BodegaFields;
  BodegaUpdated: { bodega_id: number } & BodegaFields;
  BodegaVerified: { bodega_id: number; is_verified: boolean };
  BodegaDeleted: { bodega_id: number };
  CatAdded: { cat_id: number; bodega_id: number; created_by: number | null } & CatFields;
  CatUpdated: { cat_id: number } & CatFields;
  CatDeleted: { cat_id: number; bodega_id: number };
  ReviewPosted: {
    review_id: number;
    target_type: TargetType;
    target_id: number;
    user_id: number;
    rating: number;
    comment: string;
  };
  ReviewDeleted: { review_id: number; target_type: TargetType; target_id: number; user_id: number };
  RatingRecomputed: { target_type: TargetType; target_id: number; rating: number; review_count: number };
  PhotoUploaded: {
    photo_id: number;
    target_type: TargetType;
    target_id: number;
    uploaded_by: number;
    filename: string;
    original_path: string;
    mime_type: string;
    caption: string;
    make_primary: boolean;
  };
  PhotoProcessed: {
    photo_id: number;
    target_type: TargetType;
    target_id: number;
    width: number;
    height: number;
    thumb_width: number;
    thumb_height: number;
  };
  PhotoFailed: { photo_id: number; target_type: TargetType; target_id: number; reason: string };
  PhotoPrimarySet: { photo_id: number; target_type: TargetType; target_id: number };
  PhotoDeleted: { photo_id: number; target_type: TargetType; target_id: number };
  ItemSaved: { user_id: number; target_type: TargetType; target_id: number };
  ItemUnsaved: { user_id: number; target_type: TargetType; target_id: number };
  // Account events record what happened, never a credential: the hash lives only in users.
  PasswordChanged: { user_id: number };
  SignedOutEverywhere: { user_id: number };
  RoleChanged: { user_id: number; role: Role };
  /**
   * The account is gone with its personal data (its key, so every sealed field it wrote, see
   * personal.ts); its reviews and photos were deleted by their own events just before this one.
   */
  AccountDeleted: { user_id: number };
  ContentReported: {
    report_id: number;
    target_type: ModerationTargetType;
    target_id: number;
    user_id: number;
    reason: ReportReason;
    comment: string;
    /**
     * Whether it counts toward hiding the target (REPORTS_TO_HIDE), decided when it was filed from
     * the reporter's standing then (see moderation/reporters.ts), so a replay never asks the clock.
     */
    counts_toward_hide: boolean;
  };
  /** `parent`: the bodega of a cat, the cat or bodega of a review or photo (null for a bodega). */
  ContentHidden: ModeratedContent & { by: 'reports' | 'moderator' };
  ContentRestored: ModeratedContent;
  /** A moderator's decision on a target: it closes the target's open reports. */
  ModerationDecided: {
    target_type: ModerationTargetType;
    target_id: number;
    action: 'hide' | 'restore' | 'dismiss';
    moderator_id: number;
    note: string;
  };
};

export type Role = 'member' | 'moderator';

/** A moderated target and what it hangs off (see ContentHidden). */
export type ModeratedContent = {
  target_type: ModerationTargetType;
  target_id: number;
  parent_type: TargetType | null;
  parent_id: number | null;
};

export type EventType = keyof EventMap;

export type EventMetadata = {
  actor_id?: number | null;
  request_id?: string;
  causation_position?: number;
};

/** An event about to be appended. */
export type NewEvent<T extends EventType = EventType> = T extends EventType
  ? { type: T; data: EventMap[T] }
  : never;

/** An event read back from the log (already upcast to the current schema version). */
export type RecordedEvent<T extends EventType = EventType> = T extends EventType
  ? {
      type: T;
      data: EventMap[T];
      streamId: string;
      streamVersion: number;
      position: number;
      transactionId: string;
      recordedAt: Date;
      metadata: EventMetadata;
    }
  : never;

/** Current schema version of each event type. */
export const SCHEMA_VERSIONS: Record<EventType, number> = {
  BodegaAdded: 1,
  BodegaUpdated: 1,
  BodegaVerified: 1,
  BodegaDeleted: 1,
  CatAdded: 1,
  CatUpdated: 1,
  CatDeleted: 1,
  // 2: comment sealed (server/events/personal.ts).
  ReviewPosted: 2,
  ReviewDeleted: 1,
  RatingRecomputed: 1,
  PhotoUploaded: 2, // caption sealed
  PhotoProcessed: 1,
  PhotoFailed: 1,
  PhotoPrimarySet: 1,
  PhotoDeleted: 1,
  ItemSaved: 1,
  ItemUnsaved: 1,
  PasswordChanged: 1,
  SignedOutEverywhere: 1,
  RoleChanged: 1,
  AccountDeleted: 1,
  ContentReported: 3, // 2: comment sealed; 3: counts_toward_hide
  ContentHidden: 1,
  ContentRestored: 1,
  ModerationDecided: 2, // note sealed
};

export const streamIds = {
  bodega: (id: number) => `bodega-${id}`,
  cat: (id: number) => `cat-${id}`,
  review: (id: number) => `review-${id}`,
  rating: (type: TargetType, id: number) => `rating-${type}-${id}`,
  photo: (id: number) => `photo-${id}`,
  saves: (userId: number) => `saves-${userId}`,
  account: (userId: number) => `account-${userId}`,
  moderation: (type: ModerationTargetType, id: number) => `moderation-${type}-${id}`,
};

export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
