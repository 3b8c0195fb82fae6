// `npm run replay [--verify] [--force] [projection...]`: rebuilds read tables from the event log.
// With no projection named, all of them. --verify compares instead of swapping and exits 1 on
// any difference. --force swaps even when a rebuilt table would lose most of its live rows. In
// embedded mode, a running app that has the data directory open does the work.
import { loadConfig } from '../server/config.ts';
import { configuredStorage, openDatabase, type Database } from '../server/db/database.ts';
import { migrateAndSeal } from '../server/events/migrate.ts';
import { useDataKey } from '../server/events/personal.ts';
import {
  formatDifferences,
  replay,
  ReplayBusyError,
  ReplaySwapRefusedError,
  type ReplayProgress,
} from '../server/events/replay.ts';
import { projections } from '../server/domains.ts';
import { runningAppOrExit, type RunningApp } from './running-app.ts';

const args = process.argv.slice(2);
const verify = args.includes('--verify');
const force = args.includes('--force');
const unknownFlags = args.filter((a) => a.startsWith('--') && a !== '--verify' && a !== '--force');
if (unknownFlags.length > 0) {
  console.error(`Unknown option: ${unknownFlags.join(', ')}. Known: --verify, --force`);
  process.exit(2);
}
const names = args.filter((a) => !a.startsWith('--'));
const unknown = names.filter((n) => !projections.some((p) => p.name === n));
if (unknown.length > 0) {
  console.error(
    `Unknown projection: ${unknown.join(', ')}. Known: ${projections.map((p) => p.name).join(', ')}`,
  );
  process.exit(2);
}
const selected = names.length ? projections.filter((p) => names.includes(p.name)) : projections;

const tty = process.stdout.isTTY;
let lastLine = 0;
function progress(p: ReplayProgress) {
  const pct = p.total ? p.done / p.total : 1;
  const text = `${p.done.toLocaleString()}/${p.total.toLocaleString()} events  ${Math.round(p.eventsPerSecond).toLocaleString()} ev/s  ETA ${Math.ceil(p.etaSeconds)}s`;
  if (tty) {
    const width = 30;
    const filled = Math.round(pct * width);
    process.stdout.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(pct * 100).toFixed(0).padStart(3)}%  ${text}   `,
    );
  } else if (Date.now() - lastLine > 2000 || p.done === p.total) {
    lastLine = Date.now();
    console.log(text);
  }
}

const config = loadConfig();
let database: Database | null = null;
let app: RunningApp | null = null;
try {
  database = await openDatabase(configuredStorage(config));
} catch (error) {
  app = runningAppOrExit(error); // embedded, and the running app has the data directory
}
try {
  useDataKey(config.dataKey);
  if (database) await migrateAndSeal(database.db);
  console.log(`${verify ? 'Verifying' : 'Replaying'}: ${selected.map((p) => p.name).join(', ')}`);
  const result = await (
    database
      ? replay(database, selected, { verify, force, onProgress: progress })
      : app!.replay({ verify, force, projections: names }, progress)
  ).catch((error: unknown) => {
    if (tty) process.stdout.write('\n');
    // Expected refusals: say why and what to do, without a stack trace.
    if (error instanceof ReplayBusyError || error instanceof ReplaySwapRefusedError) {
      console.error(error.message);
      process.exitCode = error instanceof ReplayBusyError ? 3 : 4;
      return null;
    }
    throw error;
  });
  if (result) {
    if (tty) process.stdout.write('\n');
    console.log(formatDifferences(result.differences));
    console.log(
      `${result.events.toLocaleString()} events in ${result.seconds.toFixed(1)}s; writers held for ${result.lockMs} ms${verify ? '' : ` during the swap (${result.lockedEvents} events applied then)`}.`,
    );
    const different = result.differences.filter((d) => !d.same);
    if (verify && different.length > 0) {
      console.error(`Verify failed: ${different.map((d) => d.table).join(', ')} differ from the log.`);
      process.exitCode = 1;
    } else if (verify) {
      console.log('Verify passed: the read tables match the event log.');
    }
  }
} finally {
  await database?.close();
}
