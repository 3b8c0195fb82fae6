// Every migration, in order. Add new timestamped files here too (static imports work under every
// runner: tsx, vitest and bundlers alike).
import type { Migration } from 'kysely';
import * as eventStore from './20261121_0001_event_store.ts';
import * as readTables from './20261121_0002_read_tables.ts';
import * as loginFailures from './20261121_0003_login_failures.ts';
import * as search from './20261121_0004_search.ts';
import * as dropEventTypeCounts from './20261121_0010_drop_event_type_counts.ts';
import * as loginFailuresPerAddress from './20261124_0101_login_failures_per_address.ts';
import * as jobs from './20261124_0201_jobs.ts';
import * as parkedEvents from './20261124_0202_parked_events.ts';
import * as earthdistanceSearchPath from './20261124_0301_earthdistance_search_path.ts';
import * as photoUploadLog from './20261124_0501_photo_upload_log.ts';
import * as tokenVersion from './20261124_0502_token_version.ts';
import * as logIncarnation from './20261124_0601_log_incarnation.ts';
import * as nameIndexes from './20261125_0301_name_indexes.ts';
import * as mapCells from './20261125_0401_map_cells.ts';
import * as moderation from './20261126_0101_moderation.ts';
import * as userKeys from './20261127_0101_user_keys.ts';
import * as mapQueueUnlogged from './20261128_0101_map_queue_unlogged.ts';
import * as labelMapIndexes from './20261129_0101_label_map_indexes.ts';
import * as accountPresent from './20261130_0101_account_present.ts';
import * as searchWordsComplete from './20261201_0101_search_words_complete.ts';
import * as mapAtCommit from './20261202_0101_map_at_commit.ts';
import * as mapCellsRebuild from './20261203_0101_map_cells_rebuild.ts';
import * as catCountShown from './20261204_0101_cat_count_shown.ts';
import * as loginKnownAddresses from './20261204_0201_login_known_addresses.ts';
import * as reporterIndexes from './20261205_0101_reporter_indexes.ts';
import * as searchWordsShort from './20261206_0101_search_words_short.ts';
import * as photoObjectIndexes from './20261207_0101_photo_object_indexes.ts';

export const migrations: Record<string, Migration> = {
  '20261121_0001_event_store': eventStore,
  '20261121_0002_read_tables': readTables,
  '20261121_0003_login_failures': loginFailures,
  '20261121_0004_search': search,
  '20261121_0010_drop_event_type_counts': dropEventTypeCounts,
  '20261124_0101_login_failures_per_address': loginFailuresPerAddress,
  '20261124_0201_jobs': jobs,
  '20261124_0202_parked_events': parkedEvents,
  '20261124_0301_earthdistance_search_path': earthdistanceSearchPath,
  '20261124_0501_photo_upload_log': photoUploadLog,
  '20261124_0502_token_version': tokenVersion,
  '20261124_0601_log_incarnation': logIncarnation,
  '20261125_0301_name_indexes': nameIndexes,
  '20261125_0401_map_cells': mapCells,
  '20261126_0101_moderation': moderation,
  '20261127_0101_user_keys': userKeys,
  '20261128_0101_map_queue_unlogged': mapQueueUnlogged,
  '20261129_0101_label_map_indexes': labelMapIndexes,
  '20261130_0101_account_present': accountPresent,
  '20261201_0101_search_words_complete': searchWordsComplete,
  '20261202_0101_map_at_commit': mapAtCommit,
  '20261203_0101_map_cells_rebuild': mapCellsRebuild,
  '20261204_0101_cat_count_shown': catCountShown,
  '20261204_0201_login_known_addresses': loginKnownAddresses,
  '20261205_0101_reporter_indexes': reporterIndexes,
  '20261206_0101_search_words_short': searchWordsShort,
  '20261207_0101_photo_object_indexes': photoObjectIndexes,
};
