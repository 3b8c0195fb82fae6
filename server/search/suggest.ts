// Suggestions while typing: cat and bodega names, breeds and personalities that match what was
// typed so far. Names match like text search does (every word as the start of a word, or a close
// word from the catalogue's word list when nothing starts with it), but only in the name; labels
// are few, so they are matched here against the filter options. A name or label equal to the
// query comes first, then those starting with it, then the rest.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { listFilterOptions } from './filter-options.ts';
import {
  namePrefixMatches,
  nameTier,
  nameWords,
  resolveText,
  tsqueryOf,
  wordsOf,
  type TextQuery,
} from './text.ts';

export type SuggestionKind = 'cat' | 'bodega' | 'breed' | 'personality';
export type Suggestion = { kind: SuggestionKind; label: string; id?: number; detail?: string };
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

async function names(
  db: Kysely<DB>,
  table: 'cats' | 'bodegas',
  text: TextQuery,
  limit: number,
): Promise<Ranked[]> {
  const detail = table === 'cats' ? sql<string>`b.name` : sql<string>`t.address`;
  const join = table === 'cats' ? sql`join bodegas b on b.id = t.bodega_id` : sql``;
  // Candidates, never more than a few hundred however common the word: names equal to or starting
  // with the query (name index, in name order, so equal ones first), and names containing the
  // words (the names' own GIN index).
  const { rows } = await sql<{ id: number; label: string; detail: string; tier: number }>`
    with q as (select ${tsqueryOf(text)} as tsq),
    candidates as (
      (select t.id from ${sql.table(table)} t where not t.hidden and ${namePrefixMatches('t', text)} order by ${nameWords('t')} limit ${limit})
      union
      (select t.id from ${sql.table(table)} t, q where not t.hidden and to_tsvector('simple', t.name) @@ q.tsq limit ${NAME_CANDIDATES})
    ),
    found as (
      select t.id, t.name as label, ${detail} as detail, ${nameTier('t', text)} as tier,
        ts_rank(to_tsvector('simple', t.name), q.tsq) as score
      from candidates c join ${sql.table(table)} t on t.id = c.id ${join}, q
    )
    select id, label, detail, tier
    from found
    order by tier desc, score desc, length(label), id desc
    limit ${limit}`.execute(db);
  const kind = table === 'cats' ? 'cat' : 'bodega';
  return rows.map((r) => ({
    kind,
    label: r.label,
    id: Number(r.id),
    detail: r.detail,
    tier: Number(r.tier),
  }));
}

export async function suggest(
  db: Kysely<DB>,
  text: TextQuery,
  type: SuggestType,
  limit: number,
): Promise<Suggestion[]> {
  if (text.words.length === 0) return [];
  const resolved = (await resolveText(db, text))!;
  const typed = text.words.join(' ');
  const [cats, bodegas, options] = await Promise.all([
    type === 'bodegas' ? [] : names(db, 'cats', resolved, limit),
    type === 'cats' ? [] : names(db, 'bodegas', resolved, limit),
    type === 'bodegas' ? null : listFilterOptions(db),
  ]);
  const labels = (kind: 'breed' | 'personality', values: string[]): Ranked[] =>
    values
      .filter((label) => labelMatches(label, text))
      .map((label) => ({ kind, label, tier: tierOf(label, typed) }))
      .sort((a, b) => b.tier - a.tier || a.label.length - b.label.length)
      .slice(0, limit);
  const all = [
    ...cats,
    ...bodegas,
    ...labels('breed', options?.breeds ?? []),
    ...labels('personality', options?.personalities ?? []),
  ];
  // Stable: within a tier, cats, then bodegas, then breeds, then personalities, each in its order.
  return all
    .sort((a, b) => b.tier - a.tier)
    .slice(0, limit)
    .map(({ tier: _tier, ...suggestion }) => suggestion);
}
