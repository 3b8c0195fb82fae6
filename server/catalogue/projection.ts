// The catalogue read model: bodegas and cats (with their bodega's name, address and coordinates
// copied in for fast search), cat counts, and the ratings the ratings worker recomputes.
import { sql, type Insertable, type Kysely } from 'kysely';
import type { BodegasTable, CatsTable, DB } from '../db/schema.ts';
import {
  chunks,
  insertRows,
  plannedApply,
  type BatchPlan,
  type AppliedProjection,
} from '../events/projection.ts';
import { assertNever, type BodegaFields, type CatFields, type RecordedEvent } from '../events/types.ts';
import { VISIBILITY_EVENTS, type VisibilityEvent } from '../events/targets.ts';
import { bodegaMatchKey } from './normalize.ts';

const HANDLES = [
  'BodegaAdded',
  'BodegaUpdated',
  'BodegaVerified',
  'BodegaDeleted',
  'CatAdded',
  'CatUpdated',
  'CatDeleted',
  'RatingRecomputed',
  'AccountDeleted',
  ...VISIBILITY_EVENTS,
] as const;
type Handled = (typeof HANDLES)[number];

/** What a cat row copies from its bodega, for search without a join. */
type BodegaCopy = Pick<Insertable<CatsTable>, 'bodega_name' | 'address' | 'latitude' | 'longitude'>;

/** The columns a bodega's text and place fill, as added or edited. */
function bodegaColumns(d: BodegaFields) {
  return {
    name: d.name,
    address: d.address,
    match_key: bodegaMatchKey(d.name, d.address),
    latitude: d.latitude,
    longitude: d.longitude,
    description: d.description,
    phone: d.phone,
    hours: d.hours,
  };
}

function bodegaRow(event: RecordedEvent<'BodegaAdded'>): Insertable<BodegasTable> {
  const d = event.data;
  return {
    id: d.bodega_id,
    ...bodegaColumns(d),
    created_by: d.created_by,
    created_at: event.recordedAt,
    updated_at: event.recordedAt,
    version: event.streamVersion,
  };
}

type CatRow = Omit<Insertable<CatsTable>, keyof BodegaCopy>;

function catRow(event: RecordedEvent<'CatAdded'>): CatRow {
  const { cat_id, bodega_id, created_by, ...fields } = event.data;
  return {
    id: cat_id,
    bodega_id,
    ...fields,
    created_by,
    created_at: event.recordedAt,
    updated_at: event.recordedAt,
    version: event.streamVersion,
  };
}

/** Every field CatUpdated sets, with its column type, for set-based updates. */
const CAT_FIELD_TYPES: Record<keyof CatFields, 'text' | 'boolean'> = {
  name: 'text',
  description: 'text',
  age: 'text',
  breed: 'text',
  sex: 'text',
  personality: 'text',
  color: 'text',
  weight: 'text',
  is_friendly: 'boolean',
};

/** Every column a bodega row is inserted with (the rest are generated), for insertRows. */
const BODEGA_COLUMNS = {
  id: 'bigint',
  name: 'text',
  address: 'text',
  match_key: 'text',
  latitude: 'double precision',
  longitude: 'double precision',
  description: 'text',
  phone: 'text',
  hours: 'text',
  cat_count: 'int',
  rating: 'double precision',
  review_count: 'int',
  is_verified: 'boolean',
  created_by: 'bigint',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  version: 'int',
};

/** Every column a cat row is inserted with, but those copied from its bodega. */
const CAT_COLUMNS = {
  id: 'bigint',
  bodega_id: 'bigint',
  ...CAT_FIELD_TYPES,
  rating: 'double precision',
  review_count: 'int',
  created_by: 'bigint',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  version: 'int',
};

type Rating = { rating: number; review_count: number };

type CataloguePending = {
  bodegas: Map<number, Insertable<BodegasTable> & { cat_count: number }>;
  cats: Map<number, CatRow>;
  /** Last update of each cat that existed before the batch. */
  catUpdates: Map<number, CatFields & { updated_at: Date; version: number }>;
  /** Cats added in the batch to bodegas that existed before it. */
  catCounts: Map<number, number>;
  /** Last rating of each target that existed before the batch. */
  ratings: { cat: Map<number, Rating>; bodega: Map<number, Rating> };
  /** Last verification of each bodega that existed before the batch. */
  verified: Map<number, { is_verified: boolean; updated_at: Date; version: number }>;
};

/**
 * Additions, cat edits and ratings fold into one insert or update per table: an edit or rating of
 * something added in the same batch lands in its inserted row, later edits of the same row replace
 * earlier ones (every edit carries every field); so do verifications. Bodega edits and deletions are rare
 * and are applied in log order between flushes.
 */
const catalogueBatch: BatchPlan<CataloguePending> = {
  start: () => ({
    bodegas: new Map(),
    cats: new Map(),
    catUpdates: new Map(),
    catCounts: new Map(),
    ratings: { cat: new Map(), bodega: new Map() },
    verified: new Map(),
  }),
  fold(p, e) {
    const event = e as RecordedEvent<Handled>;
    switch (event.type) {
      case 'BodegaAdded':
        p.bodegas.set(event.data.bodega_id, { ...bodegaRow(event), cat_count: 0 });
        return true;
      case 'BodegaVerified': {
        const change = {
          is_verified: event.data.is_verified,
          updated_at: event.recordedAt,
          version: event.streamVersion,
        };
        const added = p.bodegas.get(event.data.bodega_id);
        if (added) Object.assign(added, change);
        else p.verified.set(event.data.bodega_id, change);
        return true;
      }
      case 'CatAdded': {
        const bodegaId = event.data.bodega_id;
        p.cats.set(event.data.cat_id, catRow(event));
        const added = p.bodegas.get(bodegaId);
        if (added) added.cat_count++;
        else p.catCounts.set(bodegaId, (p.catCounts.get(bodegaId) ?? 0) + 1);
        return true;
      }
      case 'CatUpdated': {
        const { cat_id, ...fields } = event.data;
        const change = { ...fields, updated_at: event.recordedAt, version: event.streamVersion };
        const added = p.cats.get(cat_id);
        if (added) Object.assign(added, change);
        else p.catUpdates.set(cat_id, change);
        return true;
      }
      case 'RatingRecomputed': {
        const { target_type, target_id, rating, review_count } = event.data;
        const added = target_type === 'cat' ? p.cats.get(target_id) : p.bodegas.get(target_id);
        if (added) Object.assign(added, { rating, review_count });
        else p.ratings[target_type].set(target_id, { rating, review_count });
        return true;
      }
      default:
        return false;
    }
  },
  async flush(trx, p) {
    // Columns with a default are filled in here: insertRows inserts null for a missing value.
    await insertRows(
      trx,
      'bodegas',
      BODEGA_COLUMNS,
      [...p.bodegas.values()].map((b) => ({ is_verified: false, rating: 0, review_count: 0, ...b })),
    );
    if (p.cats.size > 0) {
      // Each cat copies its bodega's name, address and place in the same statement.
      const rows = [...p.cats.values()].map((c) => ({ rating: 0, review_count: 0, ...c }));
      const inserted = await insertRows(trx, 'cats', CAT_COLUMNS, rows, {
        extra: {
          columns: ['bodega_name', 'address', 'latitude', 'longitude', 'bodega_hidden'],
          select: 'b.name, b.address, b.latitude, b.longitude, b.hidden',
          join: 'join bodegas b on b.id = r.bodega_id',
        },
      });
      if (inserted !== rows.length) {
        const { rows: known } = await sql<{ id: string }>`
          select id from bodegas where id = any(${rows.map((c) => c.bodega_id)}::bigint[])`.execute(trx);
        const ids = new Set(known.map((b) => Number(b.id)));
        const orphan = rows.find((c) => !ids.has(Number(c.bodega_id)))!;
        throw new Error(`cat ${orphan.id} names bodega ${orphan.bodega_id}, which does not exist`);
      }
    }
    await updateFrom(
      trx,
      'bodegas',
      'cat_count = t.cat_count + u.added',
      { added: 'int' },
      p.catCounts,
      (added) => ({
        added,
      }),
    );
    const catColumns = { ...CAT_FIELD_TYPES, updated_at: 'timestamptz', version: 'int' } as const;
    await updateFrom(
      trx,
      'cats',
      Object.keys(catColumns)
        .map((c) => `${c} = u.${c}`)
        .join(', '),
      catColumns,
      p.catUpdates,
      (change) => change,
    );
    const ratingColumns = { rating: 'double precision', review_count: 'int' } as const;
    const ratingSet = 'rating = u.rating, review_count = u.review_count';
    await updateFrom(trx, 'cats', ratingSet, ratingColumns, p.ratings.cat, (r) => r);
    await updateFrom(trx, 'bodegas', ratingSet, ratingColumns, p.ratings.bodega, (r) => r);
    await updateFrom(
      trx,
      'bodegas',
      'is_verified = u.is_verified, updated_at = u.updated_at, version = u.version',
      { is_verified: 'boolean', updated_at: 'timestamptz', version: 'int' },
      p.verified,
      (v) => v,
    );
  },
};

/**
 * One UPDATE ... FROM jsonb_to_recordset for many rows keyed by id. Column names and types come
 * from constants in this file; the values travel as one JSON parameter.
 */
async function updateFrom<V>(
  trx: Kysely<DB>,
  table: 'cats' | 'bodegas',
  assignments: string,
  columns: Record<string, string>,
  byId: Map<number, V>,
  toRecord: (value: V) => object,
): Promise<void> {
  if (byId.size === 0) return;
  const records = [...byId].map(([id, value]) => ({ ...toRecord(value), id }));
  const definition = ['id bigint', ...Object.entries(columns).map(([name, type]) => `${name} ${type}`)].join(
    ', ',
  );
  for (const part of chunks(records, 5000)) {
    await sql`
      update ${sql.table(table)} as t set ${sql.raw(assignments)}
      from jsonb_to_recordset(${JSON.stringify(part)}::jsonb) as u(${sql.raw(definition)})
      where t.id = u.id`.execute(trx);
  }
}

/** The events the batch plan does not fold, applied one at a time in log order. */
type Unfolded = 'BodegaUpdated' | 'BodegaDeleted' | 'CatDeleted' | 'AccountDeleted' | VisibilityEvent['type'];

/** A hidden bodega hides its cats with it: they keep their own flag for when it is restored. */
async function applyCatalogueVisibility(trx: Kysely<DB>, event: VisibilityEvent): Promise<void> {
  const hidden = event.type === 'ContentHidden';
  const id = event.data.target_id;
  if (event.data.target_type === 'cat') {
    // A bodega's cat count is of the cats it shows: a cat hidden on its own leaves it, and comes
    // back with its restore (a second hide or restore of the same cat changes nothing). The
    // bodega's row is written before the cat's, in the order a bodega's own changes take them
    // (BodegaUpdated: the bodega, then its cats), so a hide and a move of its shop never wait on
    // each other in a circle. Decisions on one cat are one at a time (its moderation stream's
    // lock), so what is read here still holds when it is written.
    const cat = await trx
      .selectFrom('cats')
      .select(['bodega_id', 'hidden_self'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!cat || cat.hidden_self === hidden) return;
    await addToCatCount(trx, Number(cat.bodega_id), hidden ? -1 : 1);
    await trx.updateTable('cats').set({ hidden_self: hidden }).where('id', '=', id).execute();
  } else if (event.data.target_type === 'bodega') {
    await trx.updateTable('bodegas').set({ hidden }).where('id', '=', id).execute();
    await trx.updateTable('cats').set({ bodega_hidden: hidden }).where('bodega_id', '=', id).execute();
  }
}

async function addToCatCount(trx: Kysely<DB>, bodegaId: number, change: 1 | -1): Promise<void> {
  await trx
    .updateTable('bodegas')
    .set({ cat_count: sql`greatest(cat_count + ${change}, 0)` })
    .where('id', '=', bodegaId)
    .execute();
}

async function applyUnfolded(trx: Kysely<DB>, e: RecordedEvent): Promise<void> {
  const event = e as RecordedEvent<Unfolded>;
  switch (event.type) {
    case 'BodegaUpdated': {
      const d = event.data;
      await trx
        .updateTable('bodegas')
        .set({ ...bodegaColumns(d), updated_at: event.recordedAt, version: event.streamVersion })
        .where('id', '=', d.bodega_id)
        .execute();
      await trx
        .updateTable('cats')
        .set({ bodega_name: d.name, address: d.address, latitude: d.latitude, longitude: d.longitude })
        .where('bodega_id', '=', d.bodega_id)
        .execute();
      return;
    }
    case 'BodegaDeleted':
      // Its cats were deleted by their own CatDeleted events, appended before this one.
      await trx.deleteFrom('bodegas').where('id', '=', event.data.bodega_id).execute();
      return;
    case 'CatDeleted': {
      const gone = await trx
        .deleteFrom('cats')
        .where('id', '=', event.data.cat_id)
        .returning('hidden_self')
        .executeTakeFirst();
      // A cat hidden on its own had already left its bodega's count.
      if (gone && !gone.hidden_self) await addToCatCount(trx, event.data.bodega_id, -1);
      return;
    }
    case 'ContentHidden':
    case 'ContentRestored':
      return applyCatalogueVisibility(trx, event);
    case 'AccountDeleted':
      // What a deleted account added stays, no longer anyone's.
      await trx
        .updateTable('bodegas')
        .set({ created_by: null })
        .where('created_by', '=', event.data.user_id)
        .execute();
      await trx
        .updateTable('cats')
        .set({ created_by: null })
        .where('created_by', '=', event.data.user_id)
        .execute();
      return;
    default:
      assertNever(event);
  }
}

/**
 * Replay's rebuild leaves the cat counts of bodegas added in earlier batches alone and counts every
 * bodega's cats once at the end (a bodega's count is the number of its cat rows not hidden on their
 * own: each CatAdded adds one, each CatDeleted or hide of a shown cat removes one): updating them batch by batch rewrote each bodega about
 * five times, 1.3 s of the database's time in a replay of 1,000,000 events.
 */
const rebuildBatch: BatchPlan<CataloguePending> = {
  ...catalogueBatch,
  flush: (trx, pending) => catalogueBatch.flush(trx, { ...pending, catCounts: new Map() }),
};

async function countCats(trx: Kysely<DB>): Promise<void> {
  await sql`
    update bodegas as b set cat_count = c.n
    from (
      select b.id, count(cats.id)::int as n
      from bodegas b left join cats on cats.bodega_id = b.id and not cats.hidden_self
      group by b.id
    ) c
    where b.id = c.id and b.cat_count <> c.n`.execute(trx);
}

const applied = plannedApply(catalogueBatch, applyUnfolded);

export const catalogueProjection: AppliedProjection = {
  name: 'catalogue',
  tables: ['bodegas', 'cats'],
  handles: HANDLES,
  ...applied,
  rebuild: {
    replaces: applied.applyBatch,
    applyBatch: plannedApply(rebuildBatch, applyUnfolded).applyBatch,
    finish: countCats,
  },
};
