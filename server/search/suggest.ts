// Suggestions while typing: cat and bodega names, breeds and personalities that match what was
// typed so far. Names match like text search does (every word as the start of a word, or a close
// word from the catalogue's word list when nothing starts with it), but only in the name; labels
// are few, so they are matched here against the filter options. A name or label equal to the
// query comes first, then those starting with it, then the rest.
import { sql, type Kysely } from 'kysely';
import { reusePlan } from '../db/plans.ts';
import type { DB } from '../db/schema.ts';
import type { Suggestion, SuggestionKind } from '../../contract/search.ts';
import { labelWalks, mergeSpellings } from './filter-options.ts';
import { namePrefixMatches, nameTier, nameWords, tsqueryOf, wordsOf, type TextQuery } from './text.ts';

export type SuggestType = 'cats' | 'bodegas' | 'all';

type Ranked = Suggestion & { tier: number };

/** Names containing the typed words that are ranked, at most, per kind. */
const NAME_CANDIDATES = 200;

/** What the query sees of a label: its words, single-spaced. */
const asWords = (label: string) => wordsOf(label).join(' ');

function tierOf(label: string, typed: string): number {
  const words = asWords(label);
  return words === typed ? 2 : words.startsWith(typed) ? 1 : 0;
}

/** Trigrams the way pg_trgm makes them: each word padded with two spaces before, one after. */
function trigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of text.split(' ')) {
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  }
  return out;
}

function similarity(a: string, b: string): number {
  const ta = trigrams(a);
  const tb = trigrams(b);
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared || 1);
}

/** Every typed word starts a word of the label, or (3+ letters) is close to one of them. */
function labelMatches(label: string, text: TextQuery): boolean {
  const words = wordsOf(label);
  return text.words.every((typed) =>
    words.some((w) => w.startsWith(typed) || (typed.length >= 3 && similarity(w, typed) >= 0.3)),
  );
}

/**
 * The best `limit` names of a table for the typed words, as a subquery over q (the tsquery).
 * Candidates, never more than a few hundred however common the word: names equal to or starting
 * with the query (name index, in name order, so equal ones first), and names containing the words
 * (the names' own GIN index). Only the chosen rows are joined to their detail.
 */
function bestNames(table: 'cats' | 'bodegas', text: TextQuery, limit: number) {
  const kind = table === 'cats' ? 'cat' : 'bodega';
  const detail =
    table === 'cats' ? sql`(select b.name from bodegas b where b.id = t.bodega_id)` : sql`t.address`;
  return sql`
    select ${kind} as kind, best.id, best.label, ${detail} as detail, best.tier, best.place
    from (
      select t.id, t.name as label, ${nameTier('t', text)} as tier, row_number() over (
        order by ${nameTier('t', text)} desc, ts_rank(to_tsvector('simple', t.name), q.tsq) desc,
          length(t.name), t.id desc
      ) as place
      from (
        (select t.id from ${sql.table(table)} t where not t.hidden and ${namePrefixMatches('t', text)} order by ${nameWords('t')} limit ${limit})
        union
        (select t.id from ${sql.table(table)} t, q where not t.hidden and to_tsvector('simple', t.name) @@ q.tsq limit ${NAME_CANDIDATES})
      ) candidates
      join ${sql.table(table)} t on t.id = candidates.id, q
      order by place
      limit ${limit}
    ) best
    join ${sql.table(table)} t on t.id = best.id`;
}

type Row = {
  kind: SuggestionKind;
  id: number | null;
  label: string;
  detail: string | null;
  tier: number | null;
  /** A name's place in its type's ranking (1 is best). */
  place: number | null;
};

/**
 * One statement, so one round trip: the best names of each type asked for and, unless only
 * bodegas are, every spelling of the breeds and personalities (the filter options' walks), which
 * are few and matched here.
 */
async function candidates(db: Kysely<DB>, text: TextQuery, type: SuggestType, limit: number) {
  const parts = [
    ...(type === 'bodegas' ? [] : [bestNames('cats', text, limit)]),
    ...(type === 'cats' ? [] : [bestNames('bodegas', text, limit)]),
    ...(type === 'bodegas'
      ? []
      : [
          sql`select 'breed', null, folded, value, null, null from breed_walk`,
          sql`select 'personality', null, folded, value, null, null from personality_walk`,
        ]),
  ];
  const { rows } = await reusePlan(sql<Row>`
    with recursive ${labelWalks()},
    q as (select ${tsqueryOf(text)} as tsq)
    ${sql.join(
      parts.map((part) => sql`(${part})`),
      sql` union all `,
    )}`).execute(db);
  return rows;
}

export async function suggest(
  db: Kysely<DB>,
  text: TextQuery,
  type: SuggestType,
  limit: number,
): Promise<Suggestion[]> {
  if (text.words.length === 0) return [];
  const typed = text.words.join(' ');
  const rows = await candidates(db, text, type, limit);
  const names = (kind: 'cat' | 'bodega'): Ranked[] =>
    rows
      .filter((r) => r.kind === kind)
      .sort((a, b) => Number(a.place) - Number(b.place))
      .map((r) => ({ kind, label: r.label, id: Number(r.id), detail: r.detail!, tier: Number(r.tier) }));
  // Label rows carry a spelling: `label` the folded form, `detail` the spelling as written.
  const spellings = (kind: 'breed' | 'personality') =>
    mergeSpellings(rows.filter((r) => r.kind === kind).map((r) => ({ folded: r.label, value: r.detail! })));
  const labels = (kind: 'breed' | 'personality'): Ranked[] =>
    spellings(kind)
      .filter((label) => labelMatches(label, text))
      .map((label) => ({ kind, label, tier: tierOf(label, typed) }))
      .sort((a, b) => b.tier - a.tier || a.label.length - b.label.length)
      .slice(0, limit);
  const all = [...names('cat'), ...names('bodega'), ...labels('breed'), ...labels('personality')];
  // Stable: within a tier, cats, then bodegas, then breeds, then personalities, each in its order.
  return all
    .sort((a, b) => b.tier - a.tier)
    .slice(0, limit)
    .map(({ tier: _tier, ...suggestion }) => suggestion);
}
