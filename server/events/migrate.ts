// The start step of every process that opens the database: the migrations (db/migrate.ts), then
// the sealing of personal fields of events stored before sealing existed (personal.ts; DATA_KEY
// must be set with useDataKey first). It sits here, above db/, so that db/ imports nothing of the
// log.
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../db/migrate.ts';
import type { DB } from '../db/schema.ts';
import { sealPlainEvents } from './personal.ts';

export async function migrateAndSeal(db: Kysely<DB>): Promise<string[]> {
  const applied = await migrateToLatest(db);
  await sealPlainEvents(db);
  return applied;
}
