// `npm run migrate`: applies pending migrations to the configured database (in embedded mode,
// through the running app when it has the data directory open).
import { loadConfig } from '../server/config.ts';
import { configuredStorage, openDatabase, type Database } from '../server/db/database.ts';
import { migrateAndSeal } from '../server/events/migrate.ts';
import { useDataKey } from '../server/events/personal.ts';
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
    useDataKey(config.dataKey);
    return await migrateAndSeal(database.db);
  } finally {
    await database.close();
  }
}

const applied = await migrate();
console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
