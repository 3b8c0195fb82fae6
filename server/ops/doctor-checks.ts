// The database part of `npm run doctor`: extensions, migrations, personal data left unsealed and
// consumer lag. Shared by the
// script, which runs it on the database it opened, and by a running embedded app, which runs it
// on its own when the doctor finds the data directory in use (see local-operator.ts).
import { sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { migrations } from '../../migrations/index.ts';
import { consumerLag } from '../events/consumer.ts';
import { checkLogIncarnation, restoredLogMessage } from '../events/incarnation.ts';
import { countPlainEvents } from '../events/personal.ts';

export type Check = { name: string; ok: boolean; detail: string };

export async function databaseChecks(database: Database): Promise<Check[]> {
  const checks: Check[] = [];
  const pass = (name: string, detail: string) => checks.push({ name, ok: true, detail });
  const fail = (name: string, detail: string) => checks.push({ name, ok: false, detail });

  const { rows } = await sql<{ extname: string }>`select extname from pg_extension`.execute(database.db);
  const have = new Set(rows.map((r) => r.extname));
  const missing = ['cube', 'earthdistance', 'pg_trgm'].filter((e) => !have.has(e));
  if (missing.length === 0) pass('extensions', 'cube, earthdistance and pg_trgm are installed');
  else
    fail(
      'extensions',
      `missing ${missing.join(', ')}: run \`npm run migrate\` (needs the postgresql-contrib package)`,
    );

  const applied = await sql<{ name: string }>`select name from kysely_migration`
    .execute(database.db)
    .then((r) => new Set(r.rows.map((x) => x.name)))
    .catch(() => new Set<string>());
  const pending = Object.keys(migrations).filter((m) => !applied.has(m));
  if (pending.length === 0) pass('migrations', `all ${applied.size} applied`);
  else fail('migrations', `${pending.length} pending (${pending.join(', ')}): run \`npm run migrate\``);

  const log = await checkLogIncarnation(database.db).catch(() => null);
  if (log?.restored) fail('event log', restoredLogMessage(log));
  else if (log)
    pass(
      'event log',
      `transaction ids below this cluster's (${log.clusterTransactionId}), incarnation ${log.incarnation ?? 'none'}`,
    );

  const plain = await countPlainEvents(database.db).catch(() => null);
  if (plain === 0) pass('personal data', 'every personal field in the event log is sealed');
  else if (plain !== null)
    fail('personal data', `${plain} events hold personal fields in plain text: run \`npm run migrate\``);

  const subs = await database.db
    .selectFrom('subscriptions')
    .select('name')
    .execute()
    .catch(() => []);
  for (const { name } of subs) {
    const lag = await consumerLag(database.db, name);
    const text = `${lag.events} events behind, oldest ${lag.seconds.toFixed(0)} s old`;
    if (lag.seconds > 60) fail(`consumer ${name}`, `${text}: is a worker running (\`npm run worker\`)?`);
    else pass(`consumer ${name}`, text);
  }
  const parked = await database.db
    .selectFrom('parked_events')
    .select(['consumer', 'global_position', 'type', 'error'])
    .orderBy('global_position')
    .limit(5)
    .execute()
    .catch(() => []);
  if (parked.length === 0) pass('parked events', 'none');
  else
    fail(
      'parked events',
      `consumers parked events they could not handle (table parked_events), e.g. ${parked
        .map((p) => `${p.consumer} at ${p.global_position} (${p.type}): ${p.error}`)
        .join('; ')}: fix the cause, then re-drive them`,
    );
  return checks;
}
