// Filter options: the distinct breeds and personalities of the visible cats there are now. Read straight
// from the cats table (so always current, nothing to keep in step) by walking the index on
// (lower(btrim(label)), label) one distinct spelling at a time: a few index probes per option,
// however many cats share it.
import { sql, type Kysely } from 'kysely';
import { reusePlan } from '../db/plans.ts';
import type { DB } from '../db/schema.ts';

export type FilterOptions = { breeds: string[]; personalities: string[] };

export type Spelling = { folded: string; value: string };
type Label = 'breed' | 'personality';

/** The walk over one label's index: each step is the first (folded, spelling) pair after the last. */
function walk(column: Label) {
  const label = sql.ref(`c.${column}`);
  return sql`
    (select lower(btrim(${label})), ${label} from cats c
     where btrim(${label}) <> '' and not c.hidden order by lower(btrim(${label})), ${label} limit 1)
    union all
    select step.folded, step.value from ${sql.table(`${column}_walk`)} w cross join lateral (
      select lower(btrim(${label})) as folded, ${label} as value from cats c
      where btrim(${label}) <> '' and not c.hidden and (lower(btrim(${label})), ${label}) > (w.folded, w.value)
      order by lower(btrim(${label})), ${label} limit 1
    ) step`;
}

/**
 * The walks over both labels' indexes as two recursive CTEs, breed_walk and personality_walk, each
 * (folded, value) pair once: for a statement that starts `with recursive` (see suggest.ts).
 */
export function labelWalks() {
  return sql`breed_walk(folded, value) as (${walk('breed')}),
    personality_walk(folded, value) as (${walk('personality')})`;
}

/** Every distinct spelling of both labels, in one statement; each walk ends at the last pair. */
async function spellings(db: Kysely<DB>): Promise<Record<Label, Spelling[]>> {
  const { rows } = await reusePlan(sql<Spelling & { label: Label }>`
    with recursive ${labelWalks()}
    select 'breed' as label, folded, value from breed_walk
    union all
    select 'personality' as label, folded, value from personality_walk`).execute(db);
  return {
    breed: rows.filter((r) => r.label === 'breed'),
    personality: rows.filter((r) => r.label === 'personality'),
  };
}

/**
 * The form shown for a set of case variants, chosen deterministically: Title Case if someone wrote
 * it so ("Maine Coon" over "maine coon" and "MAINE COON"), else a capitalised one with the fewest
 * capitals, else the first in code-point order.
 */
export function displayForm(variants: string[]): string {
  const capitals = (v: string) => [...v].filter((ch) => ch !== ch.toLowerCase()).length;
  const kind = (v: string) => {
    const titled = v
      .split(' ')
      .every((w) => w[0] === w[0]?.toUpperCase() && w.slice(1) === w.slice(1).toLowerCase());
    if (titled && v !== v.toLowerCase()) return 0;
    return v[0] !== v[0]?.toLowerCase() ? 1 : 2;
  };
  const byPreference = (a: string, b: string) =>
    kind(a) - kind(b) || capitals(a) - capitals(b) || (a < b ? -1 : a > b ? 1 : 0);
  return variants.map((v) => v.trim()).sort(byPreference)[0]!;
}

/** The labels' display forms, in order, from their spellings (see displayForm). */
export function mergeSpellings(list: readonly Spelling[]): string[] {
  const groups = new Map<string, string[]>();
  for (const { folded, value } of list) groups.set(folded, [...(groups.get(folded) ?? []), value]);
  return [...groups.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((folded) => displayForm(groups.get(folded)!));
}

export async function listFilterOptions(db: Kysely<DB>): Promise<FilterOptions> {
  const found = await spellings(db);
  return { breeds: mergeSpellings(found.breed), personalities: mergeSpellings(found.personality) };
}
