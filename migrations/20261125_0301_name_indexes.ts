// Name indexes for text search and suggestions, so that neither reads every match of a common
// word: the name as the query sees it (lower case, single spaces, C collation) in a b-tree finds
// names equal to or starting with the typed words in key order (equal ones first); the name's own
// words in a GIN index find names containing a typed word without reading whole documents.
import { sql, type Kysely } from 'kysely';

const TABLES = ['cats', 'bodegas'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql`
      create index ${sql.raw(`${table}_name_words`)} on ${sql.table(table)}
      ((btrim(regexp_replace(lower(name), '[^[:alnum:]]+', ' ', 'g')) collate "C"))`.execute(db);
    await sql`
      create index ${sql.raw(`${table}_name_lexemes`)} on ${sql.table(table)}
      using gin (to_tsvector('simple', name))`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    await sql`drop index ${sql.raw(`${table}_name_words`)}, ${sql.raw(`${table}_name_lexemes`)}`.execute(db);
  }
}
