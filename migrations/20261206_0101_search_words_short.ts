// The search vocabulary holds words of one and two letters too ("st", "jr", "ii"), so a short typed
// word is widened to the words that start with it like any other: the full-text index then answers
// exact lexemes, where a short prefix collected every document of every word it covers (`'st':*`
// over 1,000,000 cats built a bitmap of every document with a word starting "st", 40 to 90 ms of a
// cold search). Short words missing until now are added from the documents.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into search_words (word)
    select lexeme from (
      select (unnest(search_doc)).lexeme from cats
      union
      select (unnest(search_doc)).lexeme from bodegas
    ) used
    where length(lexeme) < 3
      and not exists (select 1 from search_words s where s.word = used.lexeme)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from search_words where length(word) < 3`.execute(db);
}
