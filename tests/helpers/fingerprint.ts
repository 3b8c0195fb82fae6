// A fingerprint of the whole database: row count and a checksum of every row of every table (the
// event log included), to prove that a refused request changed nothing.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/db/schema.ts';
import type { TestApp } from './app.ts';

// Failed sign-ins are counted on purpose (that is the sign-in limit), and consumer checkpoints belong
// to background readers; every other table must be exactly as it was.
const NOT_FINGERPRINTED = new Set(['login_failures', 'subscriptions']);

const tablesByDatabase = new WeakMap<object, string[]>();

async function tablesOf(db: Kysely<DB>): Promise<string[]> {
  const known = tablesByDatabase.get(db);
  if (known) return known;
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const tables = rows.map((r) => r.name).filter((n) => !NOT_FINGERPRINTED.has(n));
  tablesByDatabase.set(db, tables);
  return tables;
}

/** `{ table: "<rows>:<md5 of every row>" }`, in one query. */
export async function fingerprint(t: TestApp): Promise<Record<string, string>> {
  const { db } = t.services.database;
  const perTable = (await tablesOf(db)).map(
    (table) => sql`select ${table} as name,
      count(*)::text || ':' || coalesce(md5(string_agg(t::text, '' order by t::text)), '') as sum
      from ${sql.table(table)} t`,
  );
  const { rows } = await sql<{ name: string; sum: string }>`${sql.join(perTable, sql` union all `)}`.execute(
    db,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.sum]));
}

export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((k) => before[k] !== after[k]);
}
