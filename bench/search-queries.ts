// Distinct queries over the benchmark city, as visitors type them, for the cold-search bench:
// plain (cat names, shop names, streets, a name with its breed or personality), the same with one
// typo, cat text search with filters, and the prefixes the suggestions box is asked for. Seeded,
// so every run sends the same queries; no query repeats within a kind.
import type { CatFilters } from '../server/search/params.ts';
import {
  BREEDS,
  CAT_NAMES,
  NAME_SUFFIX,
  PERSONALITIES,
  SHOP_FIRST,
  SHOP_SECOND,
  STREETS,
  randomSource,
} from './city-data.ts';

type Random = ReturnType<typeof randomSource>;
export type TextKind = { q: string; type: 'cats' | 'bodegas' };
export type FilteredQuery = { q: string; query: string; filters: CatFilters };

const labels = (values: readonly string[]) => [...new Set(values.filter((v) => v.trim() !== ''))];

/** `count` distinct values drawn from `draw` (which must be able to make that many). */
function distinct<T>(count: number, key: (t: T) => string, draw: () => T): T[] {
  const seen = new Map<string, T>();
  for (let tries = 0; seen.size < count && tries < count * 100; tries++) {
    const item = draw();
    if (!seen.has(key(item))) seen.set(key(item), item);
  }
  if (seen.size < count) throw new Error(`only ${seen.size} distinct queries, ${count} wanted`);
  return [...seen.values()];
}

function plainQuery(rnd: Random): TextKind {
  const name = () => `${rnd.pick(CAT_NAMES)}${rnd.pick(NAME_SUFFIX)}`;
  switch (Math.floor(rnd.next() * 5)) {
    case 0:
      return { q: name(), type: 'cats' };
    case 1:
      return { q: `${rnd.pick(labels(BREEDS))} ${rnd.pick(CAT_NAMES)}`, type: 'cats' };
    case 2:
      return { q: `${rnd.pick(CAT_NAMES)} ${rnd.pick(labels(PERSONALITIES))}`, type: 'cats' };
    case 3:
      return { q: `${rnd.pick(SHOP_FIRST)} ${rnd.pick(SHOP_SECOND)}`, type: 'bodegas' };
    default:
      return { q: `${rnd.pick(STREETS)} ${rnd.pick(SHOP_FIRST)}`, type: 'bodegas' };
  }
}

/** One edit (drop, double, swap or change a letter) in a word of five letters or more. */
function withTypo(rnd: Random, q: string): string {
  const words = q.split(' ');
  const long = words.map((w, i) => [w, i] as const).filter(([w]) => /^\p{L}{5,}$/u.test(w));
  if (long.length === 0) return q;
  const [word, index] = rnd.pick(long);
  const at = 1 + Math.floor(rnd.next() * (word.length - 2));
  const edits = [
    () => word.slice(0, at) + word.slice(at + 1),
    () => word.slice(0, at) + word[at] + word.slice(at),
    () => word.slice(0, at - 1) + word[at] + word[at - 1] + word.slice(at + 1),
    () => word.slice(0, at) + rnd.pick([...'aeiourstln']) + word.slice(at + 1),
  ];
  words[index] = rnd.pick(edits)();
  return words.join(' ');
}

function filtersFor(rnd: Random): { query: string; filters: CatFilters } {
  const none: CatFilters = {
    breed: null,
    personality: null,
    isFriendly: null,
    rating: { min: null, max: null },
  };
  switch (Math.floor(rnd.next() * 4)) {
    case 0: {
      const breed = rnd.pick(labels(BREEDS));
      return { query: `breed=${encodeURIComponent(breed)}`, filters: { ...none, breed } };
    }
    case 1: {
      const personality = rnd.pick(labels(PERSONALITIES));
      return { query: `personality=${encodeURIComponent(personality)}`, filters: { ...none, personality } };
    }
    case 2:
      return {
        query: 'is_friendly=true&min_rating=3',
        filters: { ...none, isFriendly: true, rating: { min: 3, max: null } },
      };
    default: {
      const min = 1 + Math.floor(rnd.next() * 5) * 0.5;
      return {
        query: `min_rating=${min}&max_rating=${min + 1.5}`,
        filters: { ...none, rating: { min, max: min + 1.5 } },
      };
    }
  }
}

function prefix(rnd: Random): string {
  const source = rnd.pick([
    () => `${rnd.pick(CAT_NAMES)}${rnd.pick(NAME_SUFFIX)}`,
    () => `${rnd.pick(SHOP_FIRST)} ${rnd.pick(SHOP_SECOND)}`,
    () => rnd.pick(labels(BREEDS)),
    () => rnd.pick(labels(PERSONALITIES)),
  ])();
  const length = 2 + Math.floor(rnd.next() * (source.length - 1));
  const typed = source.slice(0, length).toLowerCase().trim();
  return rnd.next() < 0.2 ? withTypo(rnd, typed) : typed;
}

export function coldQueries(count: number, seed = 20261125) {
  const rnd = randomSource(seed);
  const key = (t: TextKind) => `${t.type} ${t.q.toLowerCase()}`;
  const plain = distinct(count, key, () => plainQuery(rnd));
  const plainKeys = new Set(plain.map(key));
  const typo = distinct(count, key, () => {
    for (;;) {
      const base = plainQuery(rnd);
      const typed = { ...base, q: withTypo(rnd, base.q) };
      if (!plainKeys.has(key(typed))) return typed;
    }
  });
  const filtered: FilteredQuery[] = distinct(
    count,
    (f) => `${f.q.toLowerCase()} ${f.query}`,
    () => {
      const base = plainQuery(rnd);
      return { q: base.q, ...filtersFor(rnd) };
    },
  );
  const suggest = distinct(
    count,
    (q) => q,
    () => prefix(rnd),
  );
  return { plain, typo, filtered, suggest };
}
