// Free-text matching over the weighted search documents. Every query word must match, in any
// field and any order: as the start of a word ("whisk" finds "Whiskers"), or, when no word used
// in the catalogue starts with it, as one of the used words closest to it by trigram similarity
// ("wiskers" finds "whiskers"). The final match is one GIN lookup on the documents; trigrams only
// ever run against the small word list. User text reaches SQL only as bound parameters.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { reusePlan } from '../db/plans.ts';
import type { DB } from '../db/schema.ts';

const MAX_WORDS = 12;
/** Shorter words never match as typos: their trigrams are too few to tell a typo from noise. */
const FUZZY_MIN_LENGTH = 3;
/** Close words tried for a word that matches nothing as typed. */
const FUZZY_ALTERNATIVES = 4;
/** Most vocabulary words a typed word is widened to; one that starts more stays a prefix. */
const MAX_WIDENED = 32;

/**
 * The query's words: lower case, letters and digits only; and, once resolved, the tsquery they
 * stand for (so the statements that use it carry it as a constant instead of working it out in
 * each subquery).
 */
export type TextQuery = { words: string[]; tsquery?: string };

/**
 * Splits the query into words of letters and digits; everything else (`%`, `_`, quotes,
 * backslashes, operators) only separates words. Null for a blank query (list everything); no
 * words for a query made only of symbols (it matches nothing).
 */
export function parseTextQuery(q: string | undefined): TextQuery | null {
  const text = (q ?? '').normalize('NFKC').trim();
  if (text === '') return null;
  return { words: wordsOf(text).slice(0, MAX_WORDS) };
}

/** Lower-case words of letters and digits, as queries and names are compared. */
export function wordsOf(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/**
 * The tsquery, one group per typed word, all required. A word that starts words of the vocabulary
 * becomes those words, when there are at most MAX_WIDENED of them: `('calico' | 'calicos')`. The
 * vocabulary holds every lexeme of the documents, so this finds exactly what the prefix
 * `'calico':*` finds; but the full-text index answers exact lexemes from their own entries, with no
 * recheck of the documents, where a prefix collects every document of every word it covers (1.2
 * against 7.5 ms for "calico luna" over 100,000 cats; "court st downtown" with `'st':*` spent 87 ms
 * of 1,000,000 cats' index on it). A word that starts more words stays a prefix; one that starts
 * none is a prefix (a short one) or one of the vocabulary's words closest to it:
 * `('wiskers':* | 'whiskers' | ...)`.
 *
 * Typed words contain only letters and digits, so quoting them is exact. Vocabulary words can hold
 * a quote or a backslash (a web address's path); they are escaped as tsquery input wants, and read
 * as tsquery input, not parsed again, so each stays the one lexeme it is.
 */
export function tsqueryOf(text: TextQuery): RawBuilder<unknown> {
  if (text.tsquery !== undefined) return sql`${text.tsquery}::tsquery`;
  const quoted = (word: RawBuilder<string>) =>
    sql<string>`('''' || replace(replace(${word}, chr(92), chr(92) || chr(92)), '''', '''''') || '''')`;
  return sql`(
    select string_agg('(' || alternatives::text || ')', ' & ' order by n)::tsquery
    from (
      select n, case
        when widened.count between 1 and ${MAX_WIDENED} then widened.words::tsquery
        when widened.count > 0 or length(w) < ${FUZZY_MIN_LENGTH} then to_tsquery('simple', '''' || w || ''':*')
        else (to_tsquery('simple', '''' || w || ''':*')::text || coalesce((
          select string_agg(' | ' || ${quoted(sql`near.word`)}, '' order by near.score desc, near.word)
          from (
            select distinct word, similarity(word, w) as score from search_words
            where word % w order by score desc, word limit ${FUZZY_ALTERNATIVES}
          ) near), ''))::tsquery
      end as alternatives
      from unnest(string_to_array(${text.words.join(' ')}, ' ')) with ordinality as typed(w, n)
      cross join lateral (
        select count(*) as count, string_agg(${quoted(sql`word`)}, ' | ' order by word) as words
        from (
          select distinct word from search_words
          where word >= w and word < w || chr(1114111)
          order by word limit ${MAX_WIDENED + 1}
        ) starting
      ) widened
    ) per_word)`;
}

/**
 * The text with its tsquery worked out, in one short statement. The vocabulary may grow in
 * between; a query resolved a moment earlier is as good as one resolved in the same statement.
 */
export async function resolveText(db: Kysely<DB>, text: TextQuery | null): Promise<TextQuery | null> {
  if (!text || text.words.length === 0 || text.tsquery !== undefined) return text;
  const { rows } = await reusePlan(
    sql<{ tsquery: string }>`select (${tsqueryOf(text)})::text as tsquery`,
  ).execute(db);
  return { ...text, tsquery: rows[0]!.tsquery };
}

type Searchable = 'cats' | 'bodegas';

/** One GIN lookup on the documents. */
export function textMatches(table: Searchable, text: TextQuery): RawBuilder<boolean> {
  if (text.words.length === 0) return sql<boolean>`false`;
  return sql<boolean>`${sql.ref(`${table}.search_doc`)} @@ ${tsqueryOf(text)}`;
}

/**
 * The name (the column `name` of `alias`) as the query sees it: lower case, runs of anything but
 * letters and digits as one space, none at either end ("  search-deli x " is "search deli x"). The
 * exact expression of the `*_name_words` indexes.
 */
export function nameWords(alias: string): RawBuilder<string> {
  return sql<string>`(btrim(regexp_replace(lower(${sql.ref(`${alias}.name`)}), '[^[:alnum:]]+', ' ', 'g')) collate "C")`;
}

/** Names equal to the typed words or starting with them: a range of the name index. */
export function namePrefixMatches(alias: string, text: TextQuery): RawBuilder<boolean> {
  const typed = text.words.join(' ');
  return sql<boolean>`(${nameWords(alias)} >= ${typed} and ${nameWords(alias)} < ${typed} || chr(1114111))`;
}

/** How a name stands to the typed words: 2 when equal, 1 when it starts with them, else 0. */
export function nameTier(alias: string, text: TextQuery): RawBuilder<number> {
  const typed = text.words.join(' ');
  const name = nameWords(alias);
  return sql<number>`(case when ${name} = ${typed} then 2 when starts_with(${name}, ${typed}) then 1 else 0 end)`;
}

/**
 * Best match first: a name equal to the query, then a name starting with it, then the rest by
 * relevance (more of the words, in heavier fields: name, then labels and address). ts_rank stays
 * far below 100, so the tiers never mix.
 */
export function textScore(table: Searchable, text: TextQuery): RawBuilder<number> {
  if (text.words.length === 0) return sql<number>`0`;
  return sql<number>`(${nameTier(table, text)} * 100 + ts_rank(${sql.ref(`${table}.search_doc`)}, ${tsqueryOf(text)}))`;
}
