// ll_to_earth (earthdistance) computes the generated `location` columns. Its SQL body names cube(),
// earth() and the earth type unqualified, so it only works when the caller's search_path includes
// the extension's schema. Replay builds shadow tables with search_path set to the shadow schema
// alone (so no write can fall through to a live table); giving the function its own search_path
// keeps the generated columns computable there. (A function with its own settings is no longer
// inlined; it is called once per written row, and search asks for it once per query.)
import { sql, type Kysely } from 'kysely';

async function extensionSchema(db: Kysely<any>): Promise<string> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'earthdistance'`.execute(db);
  return rows[0]?.schema ?? 'public';
}

export async function up(db: Kysely<any>): Promise<void> {
  const schema = await extensionSchema(db);
  const quoted = `"${schema.replace(/"/g, '""')}"`;
  await sql`alter function ${sql.raw(quoted)}.ll_to_earth(float8, float8) set search_path = ${sql.raw(quoted)}, pg_catalog`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  const schema = await extensionSchema(db);
  const quoted = `"${schema.replace(/"/g, '""')}"`;
  await sql`alter function ${sql.raw(quoted)}.ll_to_earth(float8, float8) reset search_path`.execute(db);
}
