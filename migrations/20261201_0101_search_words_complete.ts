// The search vocabulary becomes complete, so a typed word can be widened to the words that start
// with it (exact lexemes, which the full-text index answers without rechecking documents, instead
// of a prefix match that collects every document of every such word):
// - every lexeme of three letters or more, however long and whatever it holds (a web address's
//   path can hold a quote); the queries quote them;
// - no unique key: two writers adding the same new word both insert it rather than one leaving it
//   to the other (which, were that one to roll back, left the word out). A repeated word is
//   harmless: readers take words distinct, and replay's comparison reads the table as a set.
// Words missing until now are added from the documents.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table search_words drop constraint search_words_pkey`.execute(db);
  await sql`create index search_words_word on search_words (word)`.execute(db);
  await sql`
    insert into search_words (word)
    select lexeme from (
      select (unnest(search_doc)).lexeme from cats
      union
      select (unnest(search_doc)).lexeme from bodegas
    ) used
    where length(lexeme) >= 3
      and not exists (select 1 from search_words s where s.word = used.lexeme)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index search_words_word`.execute(db);
  await sql`delete from search_words a using search_words b where a.word = b.word and a.ctid > b.ctid`.execute(
    db,
  );
  await sql`alter table search_words add primary key (word)`.execute(db);
}
