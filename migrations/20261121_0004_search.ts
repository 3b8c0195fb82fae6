// Search: weighted text documents and earth positions on the catalogue read tables (generated
// columns, so every projection write and every replay, which copies tables `including all`, keeps
// them exact), label indexes for filters, and the word list that typo tolerance matches against
// with trigrams. The position is ll_to_earth(latitude, longitude) stored as a plain column so that
// its GiST index answers nearby counts index-only and orders by distance (KNN). Text uses the
// 'simple' configuration: names, breeds and street names are not English prose, and stemming or
// stop words would only lose matches ("The Bronx", "Bo").
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table cats add column search_doc tsvector generated always as (
      setweight(to_tsvector('simple', name), 'A') ||
      setweight(to_tsvector('simple', breed || ' ' || personality || ' ' || color || ' ' ||
                                      bodega_name || ' ' || address), 'B') ||
      setweight(to_tsvector('simple', description), 'C')
    ) stored`.execute(db);
  await sql`create index cats_search_doc on cats using gin (search_doc)`.execute(db);
  await sql`
    alter table cats add column location earth generated always as (ll_to_earth(latitude, longitude)) stored`.execute(
    db,
  );
  await sql`create index cats_location on cats using gist (location)`.execute(db);
  // Filter equality, and the walk over distinct spellings behind the filter options.
  await sql`create index cats_breed_label on cats (lower(btrim(breed)), breed) where btrim(breed) <> ''`.execute(
    db,
  );
  await sql`
    create index cats_personality_label on cats (lower(btrim(personality)), personality)
    where btrim(personality) <> ''`.execute(db);

  await sql`
    alter table bodegas add column search_doc tsvector generated always as (
      setweight(to_tsvector('simple', name), 'A') ||
      setweight(to_tsvector('simple', address), 'B') ||
      setweight(to_tsvector('simple', description), 'C')
    ) stored`.execute(db);
  await sql`create index bodegas_search_doc on bodegas using gin (search_doc)`.execute(db);
  await sql`
    alter table bodegas add column location earth generated always as (ll_to_earth(latitude, longitude)) stored`.execute(
    db,
  );
  await sql`create index bodegas_location on bodegas using gist (location)`.execute(db);

  // Every word the catalogue has used (a projection). C collation: prefix LIKE can use the key.
  await sql`create table search_words (word text collate "C" primary key)`.execute(db);
  await sql`create index search_words_trigrams on search_words using gin (word gin_trgm_ops)`.execute(db);
  await sql`
    insert into search_words (word)
    select distinct lexeme from (
      select (unnest(search_doc)).lexeme from cats
      union all
      select (unnest(search_doc)).lexeme from bodegas
    ) used
    where length(lexeme) between 3 and 40 and strpos(lexeme, '''') = 0 and strpos(lexeme, chr(92)) = 0`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table search_words`.execute(db);
  await sql`drop index cats_breed_label, cats_personality_label`.execute(db);
  await sql`alter table cats drop column search_doc, drop column location`.execute(db);
  await sql`alter table bodegas drop column search_doc, drop column location`.execute(db);
}
