// A test projection: how many events of each type the log holds. Small enough to prove the
// event store and replay on their own. Its table is made by `createEventCountsTable`.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/db/schema.ts';
import type { AppliedProjection } from '../../server/events/projection.ts';
import { SCHEMA_VERSIONS, type EventType } from '../../server/events/types.ts';

export async function createEventCountsTable(db: Kysely<DB>): Promise<void> {
  await sql`create table if not exists event_type_counts (type text primary key, count bigint not null)`.execute(
    db,
  );
}

export const eventCountsProjection: AppliedProjection = {
  name: 'event-counts',
  tables: ['event_type_counts' as keyof DB],
  handles: Object.keys(SCHEMA_VERSIONS) as EventType[],
  async apply(trx, event) {
    await sql`
      insert into event_type_counts (type, count) values (${event.type}, 1)
      on conflict (type) do update set count = event_type_counts.count + 1`.execute(trx);
  },
};

export async function eventCount(db: Kysely<DB>, type: string): Promise<number> {
  const { rows } = await sql<{
    count: number;
  }>`select count from event_type_counts where type = ${type}`.execute(db);
  return Number(rows[0]?.count ?? 0);
}
