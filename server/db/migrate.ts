// Runs the timestamped migrations listed in migrations/index.ts with kysely's Migrator.
import { Migrator, sql, type Kysely } from 'kysely';
import { migrations } from '../../migrations/index.ts';
import type { DB } from './schema.ts';

/**
 * Migrations run on one session with the statement timeout lifted: building an index on a large
 * table may take longer than any request should, and a migration cut short would stop the start.
 */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  return db.connection().execute(async (session) => {
    await sql`set statement_timeout = 0`.execute(session);
    try {
      return await migrate(session);
    } finally {
      await sql`reset statement_timeout`.execute(session);
    }
  });
}

async function migrate(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
