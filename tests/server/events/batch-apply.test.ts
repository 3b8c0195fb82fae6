// Replay applies projections in batches (set-based inserts and updates); appends apply them event by
// event. Both must build the same read tables from the same log, whatever the interleaving: this
// appends a seeded random history through the inline path, then rebuilds with replay and compares.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { projections } from '../../../server/domains.ts';
import { createEventStore } from '../../../server/events/store.ts';
import { replay } from '../../../server/events/replay.ts';
import { streamIds, type NewEvent } from '../../../server/events/types.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/storage.ts';

/** A small deterministic PRNG (mulberry32), so a failure can be reproduced from its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'tabby',
  'calico',
  'sleepy',
  'orange',
  'bread',
  'shelf',
  'register',
  'bodega',
  'deli',
  'whiskers',
];

type Append = { stream: string; expected: number | 'any'; events: NewEvent[] };

/** A plausible history: only what the API could have appended (no cat of a missing bodega, ...). */
function history(seed: number, steps: number): Append[][] {
  const rnd = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const versions = new Map<string, number>();
  const bodegas = new Map<number, Set<number>>();
  const cats = new Map<number, number>();
  const reviews = new Map<number, { target_type: 'cat' | 'bodega'; target_id: number; user_id: number }>();
  const reviewed = new Set<string>();
  /** Cats and bodegas a moderator has hidden ('cat-3', 'bodega-1'). */
  const hidden = new Set<string>();
  let nextBodega = 1;
  let nextCat = 1;
  let nextReview = 1;

  const on = (stream: string, events: NewEvent[]): Append => {
    const expected = versions.get(stream) ?? 0;
    versions.set(stream, expected + events.length);
    return { stream, expected, events };
  };
  const bodegaFields = () => ({
    name: `Deli ${words(1)} ${nextBodega}`,
    address: `${Math.floor(rnd() * 900) + 1} ${words(1)} Ave`,
    latitude: rnd() < 0.8 ? 40.6 + rnd() / 5 : null,
    longitude: rnd() < 0.8 ? -74 + rnd() / 5 : null,
    description: words(3),
    phone: '',
    hours: '24/7',
  });
  const catFields = () => ({
    name: `Cat ${words(1)}`,
    description: words(4),
    age: `${Math.floor(rnd() * 15)} years`,
    breed: pick(['Tabby', 'Calico', 'Tuxedo', '']),
    sex: pick(['', 'Male', 'Female', 'Unknown'] as const),
    personality: pick(['Friendly', 'Shy', 'Curious']),
    color: words(1),
    weight: '',
    is_friendly: rnd() < 0.5,
  });

  const steps_: Append[][] = [];
  for (let s = 0; s < steps; s++) {
    const tx: Append[] = [];
    for (let k = 0; k < 1 + Math.floor(rnd() * 4); k++) {
      const roll = rnd();
      const bodegaIds = [...bodegas.keys()];
      const catIds = [...cats.keys()];
      if (rnd() < 0.1 && catIds.length > 0) {
        // A moderator hides or restores a cat or a bodega (with its cats, on every map and list).
        const target_type: 'cat' | 'bodega' = rnd() < 0.6 ? 'cat' : 'bodega';
        const target_id = target_type === 'cat' ? pick(catIds) : pick(bodegaIds);
        const key = `${target_type}-${target_id}`;
        const content = {
          target_type,
          target_id,
          parent_type: target_type === 'cat' ? ('bodega' as const) : null,
          parent_id: target_type === 'cat' ? cats.get(target_id)! : null,
        };
        const stream = streamIds.moderation(target_type, target_id);
        if (hidden.delete(key)) tx.push(on(stream, [{ type: 'ContentRestored', data: content }]));
        else {
          hidden.add(key);
          tx.push(on(stream, [{ type: 'ContentHidden', data: { ...content, by: 'moderator' } }]));
        }
        continue;
      }
      if (roll < 0.12 || bodegaIds.length === 0) {
        const id = nextBodega++;
        bodegas.set(id, new Set());
        tx.push(
          on(streamIds.bodega(id), [
            { type: 'BodegaAdded', data: { bodega_id: id, created_by: 1, ...bodegaFields() } },
          ]),
        );
      } else if (roll < 0.3) {
        const id = nextCat++;
        const bodegaId = pick(bodegaIds);
        bodegas.get(bodegaId)!.add(id);
        cats.set(id, bodegaId);
        const events: NewEvent[] = [
          { type: 'CatAdded', data: { cat_id: id, bodega_id: bodegaId, created_by: 1, ...catFields() } },
        ];
        if (rnd() < 0.3) events.push({ type: 'CatUpdated', data: { cat_id: id, ...catFields() } });
        tx.push(on(streamIds.cat(id), events));
      } else if (roll < 0.42 && catIds.length > 0) {
        const id = pick(catIds);
        tx.push(on(streamIds.cat(id), [{ type: 'CatUpdated', data: { cat_id: id, ...catFields() } }]));
      } else if (roll < 0.62) {
        const target_type: 'cat' | 'bodega' = catIds.length > 0 && rnd() < 0.7 ? 'cat' : 'bodega';
        const target_id = target_type === 'cat' ? pick(catIds) : pick(bodegaIds);
        const user_id = 1 + Math.floor(rnd() * 6);
        if (reviewed.has(`${target_type}-${target_id}-${user_id}`)) continue;
        reviewed.add(`${target_type}-${target_id}-${user_id}`);
        const id = nextReview++;
        reviews.set(id, { target_type, target_id, user_id });
        const data = {
          review_id: id,
          target_type,
          target_id,
          user_id,
          rating: 1 + Math.floor(rnd() * 5),
          comment: words(2),
        };
        tx.push(on(streamIds.review(id), [{ type: 'ReviewPosted', data }]));
      } else if (roll < 0.75) {
        const target_type: 'cat' | 'bodega' = catIds.length > 0 && rnd() < 0.7 ? 'cat' : 'bodega';
        const target_id = target_type === 'cat' ? pick(catIds) : pick(bodegaIds);
        const data = {
          target_type,
          target_id,
          rating: Math.round(rnd() * 400 + 100) / 100,
          review_count: Math.floor(rnd() * 9),
        };
        tx.push({
          stream: streamIds.rating(target_type, target_id),
          expected: 'any',
          events: [{ type: 'RatingRecomputed', data }],
        });
      } else if (roll < 0.8 && reviews.size > 0) {
        const id = pick([...reviews.keys()]);
        const r = reviews.get(id)!;
        reviews.delete(id);
        reviewed.delete(`${r.target_type}-${r.target_id}-${r.user_id}`);
        tx.push(on(streamIds.review(id), [{ type: 'ReviewDeleted', data: { review_id: id, ...r } }]));
      } else if (roll < 0.86) {
        const id = pick(bodegaIds);
        tx.push(
          on(streamIds.bodega(id), [{ type: 'BodegaUpdated', data: { bodega_id: id, ...bodegaFields() } }]),
        );
      } else if (roll < 0.9) {
        const id = pick(bodegaIds);
        tx.push(
          on(streamIds.bodega(id), [
            { type: 'BodegaVerified', data: { bodega_id: id, is_verified: rnd() < 0.7 } },
          ]),
        );
      } else if (roll < 0.95 && catIds.length > 0) {
        const id = pick(catIds);
        const bodegaId = cats.get(id)!;
        cats.delete(id);
        bodegas.get(bodegaId)!.delete(id);
        for (const [rid, r] of reviews)
          if (r.target_type === 'cat' && r.target_id === id) reviews.delete(rid);
        tx.push(on(streamIds.cat(id), [{ type: 'CatDeleted', data: { cat_id: id, bodega_id: bodegaId } }]));
      } else if (bodegaIds.length > 1) {
        // A bodega goes with its cats, each by its own CatDeleted first, as the API appends them.
        const id = pick(bodegaIds);
        for (const catId of bodegas.get(id)!) {
          cats.delete(catId);
          for (const [rid, r] of reviews)
            if (r.target_type === 'cat' && r.target_id === catId) reviews.delete(rid);
          tx.push(on(streamIds.cat(catId), [{ type: 'CatDeleted', data: { cat_id: catId, bodega_id: id } }]));
        }
        for (const [rid, r] of reviews)
          if (r.target_type === 'bodega' && r.target_id === id) reviews.delete(rid);
        bodegas.delete(id);
        tx.push(on(streamIds.bodega(id), [{ type: 'BodegaDeleted', data: { bodega_id: id } }]));
      }
    }
    if (tx.length > 0) steps_.push(tx);
  }
  return steps_;
}

describe('batched replay matches event-by-event projection', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t.drop());

  it.each([20261122, 7, 421])('builds the same read tables from a random history (seed %i)', async (seed) => {
    const tables = ['events', 'streams', ...projections.flatMap((p) => p.tables)];
    await sql`truncate ${sql.raw(tables.join(', '))}`.execute(t.database.db);
    const store = createEventStore(projections);
    for (const tx of history(seed, 160)) {
      await t.database.db.transaction().execute(async (trx) => {
        for (const a of tx) await store.append(trx, a.stream, a.expected, a.events);
      });
    }
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from cats`.execute(t.database.db);
    expect(rows[0]!.n).toBeGreaterThan(5);

    const result = await replay(t.database, projections, { verify: true });
    expect(result.events).toBeGreaterThan(160);
    expect(result.differences.filter((d) => !d.same)).toEqual([]);
    // In about eight batches, each projection working through them at its own pace.
    const batchSize = Math.ceil(result.events / 8);
    const batched = await replay(t.database, projections, { verify: true, batchSize });
    expect(batched.events).toBe(result.events);
    expect(batched.differences.filter((d) => !d.same)).toEqual([]);
  });

  it('rebuilds the deferred indexes (full-text, geo, expressions) as they were, under their live names', async () => {
    const names = async () =>
      (
        await sql<{ name: string; definition: string }>`
          select indexname as name, indexdef as definition from pg_indexes
          where schemaname = 'public' and tablename in ('cats', 'bodegas', 'search_words')
          order by 1`.execute(t.database.db)
      ).rows;
    const before = await names();
    expect(before.some((i) => i.name.includes('search_doc'))).toBe(true);
    expect(before.some((i) => i.name === 'cats_name_words')).toBe(true);
    await replay(t.database, projections);
    expect(await names()).toEqual(before);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from cats where search_doc @@ to_tsquery('simple', 'cat')`.execute(
      t.database.db,
    );
    expect(rows[0]!.n).toBeGreaterThan(0);
  });
});
