// Table types for Kysely. Rows stay inside repositories; mappers turn them into API shapes.
import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Json = ColumnType<unknown, string, string>;
export type TargetType = 'cat' | 'bodega';

export interface EventsTable {
  global_position: Generated<number>;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: Json;
  metadata: Json;
  idempotency_key: string | null;
  transaction_id: Generated<string>;
  recorded_at: Generated<Timestamp>;
}

export interface StreamsTable {
  stream_id: string;
  version: number;
}

export interface SubscriptionsTable {
  name: string;
  last_transaction_id: Generated<string>;
  last_position: Generated<number>;
  updated_at: Generated<Timestamp>;
}

export interface LogIncarnationTable {
  singleton: Generated<boolean>;
  id: string;
  started_at: Generated<Timestamp>;
}

export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  request_hash: string;
  status_code: number;
  body: Json;
  created_at: Generated<Timestamp>;
}

export interface UsersTable {
  id: number;
  username: string;
  email: string;
  password_hash: string;
  created_at: Generated<Timestamp>;
  /** Carried in issued tokens (claim `tv`); a token with another version is refused. */
  token_version: Generated<number>;
}

/** A user's data key, wrapped by DATA_KEY (see server/events/personal.ts). */
export interface UserKeysTable {
  user_id: number;
  wrapped_key: Buffer;
  created_at: Generated<Timestamp>;
}

export interface BodegasTable {
  id: number;
  name: string;
  address: string;
  match_key: string;
  latitude: number | null;
  longitude: number | null;
  description: string;
  phone: string;
  hours: string;
  cat_count: Generated<number>;
  rating: Generated<number>;
  review_count: Generated<number>;
  is_verified: Generated<boolean>;
  /** Hidden by moderation (see server/moderation/). */
  hidden: Generated<boolean>;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  version: number;
  /** Weighted tsvector of name, address and description (generated). */
  search_doc: GeneratedAlways<string>;
  /** ll_to_earth(latitude, longitude), null without coordinates (generated). */
  location: GeneratedAlways<string | null>;
}

export interface CatsTable {
  id: number;
  bodega_id: number;
  bodega_name: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  name: string;
  description: string;
  age: string;
  breed: string;
  sex: string;
  personality: string;
  color: string;
  weight: string;
  is_friendly: boolean;
  rating: Generated<number>;
  review_count: Generated<number>;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  version: number;
  hidden_self: Generated<boolean>;
  bodega_hidden: Generated<boolean>;
  /** Hidden itself or through its bodega (generated): what every public read filters on. */
  hidden: GeneratedAlways<boolean>;
  /** Weighted tsvector: name; breed, personality, colour, bodega and address; description. */
  search_doc: GeneratedAlways<string>;
  /** ll_to_earth(latitude, longitude), null without coordinates (generated). */
  location: GeneratedAlways<string | null>;
}

export interface ReviewsTable {
  id: number;
  target_type: TargetType;
  target_id: number;
  user_id: number;
  rating: number;
  comment: string;
  created_at: Timestamp;
  hidden: Generated<boolean>;
}

export interface PhotosTable {
  id: number;
  target_type: TargetType;
  target_id: number;
  uploaded_by: number | null;
  filename: string;
  original_path: string;
  mime_type: string;
  caption: string;
  status: 'processing' | 'ready' | 'failed';
  is_primary: boolean;
  width: number | null;
  height: number | null;
  thumb_width: number | null;
  thumb_height: number | null;
  created_at: Timestamp;
  hidden: Generated<boolean>;
}

export interface SavesTable {
  user_id: number;
  target_type: TargetType;
  target_id: number;
  saved_at: Timestamp;
}

export interface RecentlyViewedTable {
  user_id: number;
  target_type: TargetType;
  target_id: number;
  viewed_at: Timestamp;
}

export interface LoginFailuresTable {
  /**
   * 'pair': one sign-in name at one client address; 'ip': an address overall; 'name': one sign-in
   * name from every address (see server/accounts/login-limits.ts).
   */
  scope: 'pair' | 'ip' | 'name';
  key: string;
  failures: number;
  last_failed_at: Timestamp;
}

/** Addresses (IPv6 by /64) each sign-in name recently signed in from, as hashes. */
export interface LoginKnownAddressesTable {
  name_key: string;
  address_key: string;
  last_signed_in_at: Timestamp;
}

/** One row per accepted photo upload in the last day: the per-user quotas count these. */
export interface PhotoUploadLogTable {
  user_id: number;
  uploaded_at: Generated<Timestamp>;
}

/** Embedded mode's durable jobs (BullMQ keeps them in Redis otherwise). */
export interface JobsTable {
  queue: string;
  id: string;
  data: Json;
  attempts: Generated<number>;
  retries: Generated<number>;
  run_at: Generated<Timestamp>;
  failed_at: Timestamp | null;
  last_error: string | null;
  created_at: Generated<Timestamp>;
}

/** Events a consumer parked instead of halting on them. */
export interface ParkedEventsTable {
  consumer: string;
  global_position: number;
  type: string;
  error: string;
  parked_at: Generated<Timestamp>;
}

/** Every word the catalogue has used: what misspelt query words are matched against. */
export interface SearchWordsTable {
  word: string;
}

/** A bodega's place on the map and the cats it holds (count and id sum), for the map cells. */
export interface MapPlacesTable {
  id: number;
  latitude: number | null;
  longitude: number | null;
  cats: number;
  cat_id_sum: number;
  /** A hidden bodega's place: neither it nor its cats count in the cells. */
  hidden: Generated<boolean>;
}

/** Cats hidden one by one, taken out of their place's count (see server/map/projection.ts). */
export interface MapHiddenCatsTable {
  id: number;
  bodega_id: number;
}

/** What can be reported and moderated. */
export type ModerationTargetType = 'cat' | 'bodega' | 'review' | 'photo';
export type ReportReason = 'spam' | 'offensive' | 'wrong_info' | 'not_a_cat' | 'other';

export interface ReportsTable {
  id: number;
  target_type: ModerationTargetType;
  target_id: number;
  user_id: number;
  reason: ReportReason;
  comment: string;
  /** Until a moderator decides on the target. */
  open: boolean;
  created_at: Timestamp;
}

export interface ModerationItemsTable {
  target_type: ModerationTargetType;
  target_id: number;
  hidden: boolean;
  /** Hidden because enough people reported it (a dismissal restores it), not by a moderator. */
  hidden_by_reports: boolean;
  decided_at: Timestamp | null;
}

export interface ModeratorsTable {
  user_id: number;
}

/** One grid cell of one zoom level: located cats or bodegas in it (see server/map/). */
export interface MapCellsTable {
  kind: 'cat' | 'bodega';
  level: number;
  cx: number;
  cy: number;
  n: number;
  lat_sum: number;
  lng_sum: number;
  id_sum: number;
}

export interface DB {
  events: EventsTable;
  streams: StreamsTable;
  subscriptions: SubscriptionsTable;
  log_incarnation: LogIncarnationTable;
  idempotency_keys: IdempotencyKeysTable;
  users: UsersTable;
  user_keys: UserKeysTable;
  bodegas: BodegasTable;
  cats: CatsTable;
  reviews: ReviewsTable;
  photos: PhotosTable;
  saves: SavesTable;
  recently_viewed: RecentlyViewedTable;
  search_words: SearchWordsTable;
  map_places: MapPlacesTable;
  map_cells: MapCellsTable;
  map_hidden_cats: MapHiddenCatsTable;
  reports: ReportsTable;
  moderation_items: ModerationItemsTable;
  moderators: ModeratorsTable;
  login_failures: LoginFailuresTable;
  login_known_addresses: LoginKnownAddressesTable;
  jobs: JobsTable;
  parked_events: ParkedEventsTable;
  photo_upload_log: PhotoUploadLogTable;
}

export type CatRow = Selectable<CatsTable>;
export type BodegaRow = Selectable<BodegasTable>;
export type PhotoRow = Selectable<PhotosTable>;
export type ReviewRow = Selectable<ReviewsTable>;
export type UserRow = Selectable<UsersTable>;
export type NewEventRow = Insertable<EventsTable>;
