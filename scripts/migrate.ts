// `npm run migrate`: applies pending migrations to the configured database (in embedded mode,
// through the running app when it has the data directory open).
import { loadConfig } from '../server/config.ts';
import { configuredStorage, openDatabase, type Database } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { runningAppOrExit } from './running-app.ts';

async function migrate(): Promise<string[]> {
  const config = loadConfig();
  let database: Database;
  try {
    database = await openDatabase(configuredStorage(config));
  } catch (error) {
    return (await runningAppOrExit(error).call<{ applied: string[] }>('migrate')).applied;
  }
  try {
    return await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
}

const applied = await migrate();
console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
