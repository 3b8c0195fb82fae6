// `npm run log -- status`: the log's head, this cluster's transaction id and every consumer's cursor
// and lag. `npm run log -- rebase [--force]`: after a restore into another cluster (or a move to a
// new server), makes the log consumable again (see server/events/incarnation.ts). The app must be
// stopped for a rebase; in embedded mode that also frees the data directory.
import { loadConfig } from '../server/config.ts';
import { configuredStorage, openDatabase, type Database } from '../server/db/database.ts';
import { DataDirectoryLockedError } from '../server/db/data-lock.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { formatCursor } from '../server/events/consumer.ts';
import {
  logStatus,
  rebaseLog,
  RebaseRefusedError,
  restoredLogMessage,
} from '../server/events/incarnation.ts';

const USAGE = 'Usage: npm run log -- status | npm run log -- rebase [--force]';
const [command, ...flags] = process.argv.slice(2);
const unknownFlags = flags.filter((f) => f !== '--force');
if ((command !== 'status' && command !== 'rebase') || unknownFlags.length > 0) {
  console.error(USAGE);
  process.exit(2);
}

const config = loadConfig();
let database: Database;
try {
  database = await openDatabase(configuredStorage(config));
} catch (error) {
  if (!(error instanceof DataDirectoryLockedError)) throw error;
  console.error(`${error.message}\nStop the app first: \`npm run log\` needs the data directory to itself.`);
  process.exit(1);
}

try {
  if (command === 'status') await status(database);
  else await rebase(database, flags.includes('--force'));
} catch (error) {
  if (!(error instanceof RebaseRefusedError)) throw error;
  console.error(`Rebase refused: ${error.message}.`);
  process.exitCode = 1;
} finally {
  await database.close();
}

async function status(database: Database) {
  const s = await logStatus(database.db);
  console.log(`head position         ${s.headPosition} (${s.eventCount} events)`);
  console.log(`head transaction id   ${s.eventsTransactionId ?? '-'}`);
  console.log(`cluster xid           ${s.clusterTransactionId} (oldest running ${s.horizon})`);
  console.log(`incarnation           ${s.incarnation ?? '-'}`);
  for (const sub of s.subscriptions) {
    console.log(
      `consumer ${sub.name.padEnd(20)} cursor ${formatCursor(sub.cursor)}  ` +
        `${sub.lagEvents} events behind (${sub.lagSeconds.toFixed(0)} s), ${sub.eventsAfterPosition} after its position`,
    );
  }
  if (s.restored) {
    console.log(`\nFAIL  ${restoredLogMessage(s)}`);
    process.exitCode = 1;
  } else {
    console.log('\nThe log is consumable.');
  }
}

async function rebase(database: Database, force: boolean) {
  await migrateToLatest(database.db);
  const s = await logStatus(database.db);
  if (!s.restored && !force) {
    console.log(
      "The log's transaction ids are below this cluster's: nothing to rebase (`--force` rebases anyway).",
    );
    return;
  }
  const result = await rebaseLog(database.db);
  console.log(`Rebased ${result.events} events onto transaction ${result.transactionId}.`);
  for (const sub of result.subscriptions) {
    console.log(`consumer ${sub.name.padEnd(20)} ${formatCursor(sub.before)} -> ${formatCursor(sub.after)}`);
  }
  console.log(
    `New log incarnation ${result.incarnation.after} (was ${result.incarnation.before ?? 'none'}); ` +
      'consumers resume where they were. Start the app again.',
  );
}
