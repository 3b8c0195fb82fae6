// Relevance against the judged query set (queries.json): for search and for suggestions, the share
// of judged queries whose first result (top-1), or one of whose first five (top-5), is what the
// query's judgment names. Run against the benchmark city, with the same functions the routes call.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { DB } from '../../server/db/schema.ts';
import { searchBodegas } from '../../server/search/bodegas.ts';
import { searchCats } from '../../server/search/cats.ts';
import type { Suggestion } from '../../contract/search.ts';
import { suggest } from '../../server/search/suggest.ts';
import { parseTextQuery, wordsOf } from '../../server/search/text.ts';

type Expect = {
  name?: string;
  nameHas?: string;
  breed?: string;
  personality?: string;
  address?: string;
};
type Judged = {
  q: string;
  kind: string;
  search: { type: 'cats' | 'bodegas'; expect: Expect } | null;
  suggest: { kind: Suggestion['kind']; label: string } | null;
};
type Item = { name: string; breed?: string; personality?: string; address: string };

export type Accuracy = { judged: number; top1: number; top5: number; misses: string[] };

export function loadQueries(): Judged[] {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), 'queries.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { queries: Judged[] }).queries;
}

/** Case, spaces and punctuation aside, as the ranking compares names. */
const same = (a: string, b: string) => wordsOf(a).join(' ') === wordsOf(b).join(' ');

function meets(item: Item, expect: Expect): boolean {
  return (
    (expect.name === undefined || same(item.name, expect.name)) &&
    (expect.nameHas === undefined || wordsOf(item.name).includes(expect.nameHas.toLowerCase())) &&
    (expect.breed === undefined || same(item.breed ?? '', expect.breed)) &&
    (expect.personality === undefined || same(item.personality ?? '', expect.personality)) &&
    (expect.address === undefined || item.address.toLowerCase().includes(expect.address.toLowerCase()))
  );
}

const NO_CAT_FILTERS = { breed: null, personality: null, isFriendly: null, rating: { min: null, max: null } };
const NO_BODEGA_FILTERS = {
  catCount: { min: null, max: null },
  verifiedOnly: false,
  rating: { min: null, max: null },
};
const FIRST_FIVE = { page: 1, perPage: 5 };

async function firstFive(db: Kysely<DB>, q: string, type: 'cats' | 'bodegas'): Promise<Item[]> {
  const text = parseTextQuery(q);
  if (type === 'cats') {
    const { cats } = await searchCats(db, { text, filters: NO_CAT_FILTERS, circle: null, page: FIRST_FIVE });
    return cats.map((c) => ({
      ...c,
      breed: c.breed ?? '',
      personality: c.personality ?? '',
      address: c.address ?? '',
    }));
  }
  const { bodegas } = await searchBodegas(db, {
    text,
    filters: NO_BODEGA_FILTERS,
    circle: null,
    page: FIRST_FIVE,
  });
  return bodegas.map((b) => ({ name: b.name, address: b.address }));
}

function tally(results: { q: string; hits: boolean[] }[]): Accuracy {
  const judged = results.length;
  const share = (n: number) => (judged === 0 ? 0 : n / judged);
  return {
    judged,
    top1: share(results.filter((r) => r.hits[0]).length),
    top5: share(results.filter((r) => r.hits.slice(0, 5).some(Boolean)).length),
    misses: results.filter((r) => !r.hits[0]).map((r) => r.q),
  };
}

export async function judgeRelevance(db: Kysely<DB>): Promise<{ search: Accuracy; suggest: Accuracy }> {
  const queries = loadQueries();
  const search: { q: string; hits: boolean[] }[] = [];
  const suggested: { q: string; hits: boolean[] }[] = [];
  for (const judged of queries) {
    if (judged.search) {
      const { type, expect } = judged.search;
      const items = await firstFive(db, judged.q, type);
      search.push({ q: `${type}: ${judged.q}`, hits: items.map((item) => meets(item, expect)) });
    }
    if (judged.suggest) {
      const wanted = judged.suggest;
      const found = await suggest(db, parseTextQuery(judged.q)!, 'all', 5);
      suggested.push({
        q: judged.q,
        hits: found.map((s) => s.kind === wanted.kind && same(s.label, wanted.label)),
      });
    }
  }
  return { search: tally(search), suggest: tally(suggested) };
}
