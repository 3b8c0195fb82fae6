// The map's cells as a projection of the log (see contract/map-grid.ts and the migration 20261125_0401): every
// located cat or bodega adds itself to one cell of each stored level. Cats take the place of their
// bodega, which this projection keeps in map_places (it reads no other read table), together with
// the count and id sum of the cats there, so that a moved or deleted bodega's cats leave its old
// cells. Changes are queued with the coordinates of their moment and folded into the cells at
// commit, where cell locks are taken in one order (see the migration); they commute, so replay
// folds a whole batch at once, and additions and cat deletions fold into one statement each.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { chunks, plannedApply, type BatchPlan, type Projection } from '../events/projection.ts';
import { VISIBILITY_EVENTS, type VisibilityEvent } from '../events/targets.ts';
import { assertNever, type RecordedEvent } from '../events/types.ts';

const HANDLES = [
  'BodegaAdded',
  'BodegaUpdated',
  'BodegaDeleted',
  'CatAdded',
  'CatDeleted',
  ...VISIBILITY_EVENTS,
] as const;
type Handled = (typeof HANDLES)[number];

type Place = { id: number; latitude: number | null; longitude: number | null };
/** A change to the cells: n items of a kind at a bodega's place, with the sum of their ids. */
type Share = { kind: 'cat' | 'bodega'; bodega_id: number; n: number; id_sum: number };
type MapPending = {
  places: Place[];
  /** Cats added minus cats deleted per bodega: [count, id sum]. */
  catsAt: Map<number, [number, number]>;
  shares: Map<string, Share>;
  /** Cats deleted in the batch: a hidden one had already left its place's count. */
  deletedCats: number[];
};

function addShare(p: MapPending, share: Share): void {
  const key = `${share.kind} ${share.bodega_id}`;
  const known = p.shares.get(key);
  if (known) {
    known.n += share.n;
    known.id_sum += share.id_sum;
  } else p.shares.set(key, { ...share });
}

function addCats(p: MapPending, bodegaId: number, n: number, idSum: number): void {
  const [count, sum] = p.catsAt.get(bodegaId) ?? [0, 0];
  p.catsAt.set(bodegaId, [count + n, sum + idSum]);
  addShare(p, { kind: 'cat', bodega_id: bodegaId, n, id_sum: idSum });
}

const mapBatch: BatchPlan<MapPending> = {
  start: () => ({ places: [], catsAt: new Map(), shares: new Map(), deletedCats: [] }),
  fold(p, e) {
    const event = e as RecordedEvent<Handled>;
    switch (event.type) {
      case 'BodegaAdded': {
        const { bodega_id: id, latitude, longitude } = event.data;
        p.places.push({ id, latitude, longitude });
        addShare(p, { kind: 'bodega', bodega_id: id, n: 1, id_sum: id });
        return true;
      }
      case 'CatAdded':
        addCats(p, event.data.bodega_id, 1, event.data.cat_id);
        return true;
      case 'CatDeleted':
        addCats(p, event.data.bodega_id, -1, -event.data.cat_id);
        p.deletedCats.push(event.data.cat_id);
        return true;
      default:
        return false;
    }
  },
  async flush(trx, p) {
    if (p.deletedCats.length > 0) {
      const unhidden = await trx
        .deleteFrom('map_hidden_cats')
        .where('id', 'in', p.deletedCats)
        .returning(['id', 'bodega_id'])
        .execute();
      for (const cat of unhidden) addCats(p, Number(cat.bodega_id), 1, Number(cat.id));
    }
    const counts = [...p.catsAt].map(([id, [n, sum]]) => ({ id, n, sum }));
    const shares = [...p.shares.values()];
    // One event of an append (a shop added, a cat added or deleted) takes one statement; the
    // statements of a CTE share one snapshot, so new places and counts of them are not combined.
    if (!replaying.has(trx) && (p.places.length === 0 || counts.length === 0))
      return placeAndQueue(trx, p.places, counts, shares);
    for (const part of chunks(p.places, 5000)) {
      await sql`
        insert into map_places (id, latitude, longitude, cats, cat_id_sum)
        select r.id, r.latitude, r.longitude, 0, 0
        from jsonb_to_recordset(${JSON.stringify(part)}::jsonb)
          as r(id bigint, latitude double precision, longitude double precision)`.execute(trx);
    }
    for (const part of chunks(counts, 5000)) {
      await sql`
        update map_places as t set cats = t.cats + u.n, cat_id_sum = t.cat_id_sum + u.sum
        from jsonb_to_recordset(${JSON.stringify(part)}::jsonb) as u(id bigint, n int, sum bigint)
        where t.id = u.id`.execute(trx);
    }
    await queueShares(trx, shares);
  },
};

type Count = { id: number; n: number; sum: number };

/**
 * The shares' bodegas as an array condition beside the join: the planner takes a JSON record set
 * for 100 rows and would scan all of map_places (and its dead versions) for a join with one; with
 * the ids as an array it looks them up by the key.
 */
function bodegaIds(shares: readonly Share[]) {
  return sql`${sql.val([...new Set(shares.map((s) => s.bodega_id))])}::bigint[]`;
}

/**
 * New places or cat counts, and the shares they queue, in one statement: a queued share takes its
 * place's coordinates from the places inserted by the statement or, for the others, from
 * map_places (a count update does not move a place).
 */
async function placeAndQueue(
  trx: Kysely<DB>,
  places: readonly Place[],
  counts: readonly Count[],
  shares: readonly Share[],
): Promise<void> {
  const changed = shares.filter((s) => s.n !== 0 || s.id_sum !== 0);
  const mark = changed.length > 0 && !marked.has(trx);
  const steps = [
    places.length > 0
      ? sql`new_places as (
          insert into map_places (id, latitude, longitude, cats, cat_id_sum)
          select r.id, r.latitude, r.longitude, 0, 0
          from jsonb_to_recordset(${JSON.stringify(places)}::jsonb)
            as r(id bigint, latitude double precision, longitude double precision)
          returning id, latitude, longitude, hidden)`
      : sql`new_places as (select id, latitude, longitude, hidden from map_places where false)`,
    ...(counts.length > 0
      ? [
          sql`counted as (
            update map_places as t set cats = t.cats + u.n, cat_id_sum = t.cat_id_sum + u.sum
            from jsonb_to_recordset(${JSON.stringify(counts)}::jsonb) as u(id bigint, n int, sum bigint)
            where t.id = u.id and t.id = any(${sql.val(counts.map((c) => c.id))}::bigint[]))`,
        ]
      : []),
    ...(mark ? [sql`marker as (insert into map_commit_marker default values)`] : []),
  ];
  await sql`
    with ${sql.join(steps)},
    shares as (
      select * from jsonb_to_recordset(${JSON.stringify(changed)}::jsonb)
        as s(kind text, bodega_id bigint, n int, id_sum bigint)
    )
    insert into map_pending (kind, latitude, longitude, n, id_sum)
    select s.kind, p.latitude, p.longitude, s.n, s.id_sum
    from shares s join new_places p on p.id = s.bodega_id
    where p.latitude is not null and p.longitude is not null and not p.hidden
    union all
    select s.kind, p.latitude, p.longitude, s.n, s.id_sum
    from shares s join map_places p on p.id = s.bodega_id and p.id = any(${bodegaIds(changed)})
    where p.latitude is not null and p.longitude is not null and not p.hidden`.execute(trx);
  if (mark) marked.add(trx);
}

/** Transactions whose queue is already set to be folded in at commit. */
const marked = new WeakSet<Kysely<DB>>();
/** Replay's transactions: their shadow queue has no trigger, so they fold it themselves. */
const replaying = new WeakSet<Kysely<DB>>();

/**
 * Queues the shares with their place's coordinates as they are now (places without any are on no
 * map); map_flush_pending() folds the queue into the cells (see migration 20261125_0401). A live
 * transaction's first queueing also inserts the marker whose deferred trigger folds at commit.
 */
async function queueShares(trx: Kysely<DB>, shares: readonly Share[]): Promise<void> {
  const changed = shares.filter((s) => s.n !== 0 || s.id_sum !== 0);
  for (const part of chunks(changed, 5000)) {
    const mark = !replaying.has(trx) && !marked.has(trx);
    await sql`
      ${mark ? sql`with marker as (insert into map_commit_marker default values)` : sql``}
      insert into map_pending (kind, latitude, longitude, n, id_sum)
      select s.kind, p.latitude, p.longitude, s.n, s.id_sum
      from jsonb_to_recordset(${JSON.stringify(part)}::jsonb)
        as s(kind text, bodega_id bigint, n int, id_sum bigint)
      join map_places p on p.id = s.bodega_id and p.id = any(${bodegaIds(part)})
        and p.latitude is not null and p.longitude is not null and not p.hidden`.execute(trx);
    if (mark) marked.add(trx);
  }
}

/** Takes a bodega and its cats out of the cells at its current place. */
async function takeOut(trx: Kysely<DB>, bodegaId: number): Promise<void> {
  const place = await trx
    .selectFrom('map_places')
    .select(['cats', 'cat_id_sum'])
    .where('id', '=', bodegaId)
    .executeTakeFirst();
  if (!place) return;
  await queueShares(trx, [
    { kind: 'bodega', bodega_id: bodegaId, n: -1, id_sum: -bodegaId },
    { kind: 'cat', bodega_id: bodegaId, n: -place.cats, id_sum: -Number(place.cat_id_sum) },
  ]);
}

/** Moves a cat hidden or restored one by one out of or back into its place's count and cells. */
async function catVisibility(trx: Kysely<DB>, catId: number, bodegaId: number, hidden: boolean) {
  const changed = hidden
    ? await trx
        .insertInto('map_hidden_cats')
        .values({ id: catId, bodega_id: bodegaId })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .execute()
    : await trx.deleteFrom('map_hidden_cats').where('id', '=', catId).returning('id').execute();
  if (changed.length === 0) return;
  const sign = hidden ? -1 : 1;
  await trx
    .updateTable('map_places')
    .set((eb) => ({
      cats: eb('cats', '+', sign),
      cat_id_sum: eb('cat_id_sum', '+', sign * catId),
    }))
    .where('id', '=', bodegaId)
    .execute();
  await queueShares(trx, [{ kind: 'cat', bodega_id: bodegaId, n: sign, id_sum: sign * catId }]);
}

/** A hidden bodega's place leaves the cells with its cats; restored, it comes back. */
async function bodegaVisibility(trx: Kysely<DB>, bodegaId: number, hidden: boolean) {
  const place = await trx
    .selectFrom('map_places')
    .select(['hidden', 'cats', 'cat_id_sum'])
    .where('id', '=', bodegaId)
    .executeTakeFirst();
  if (!place || place.hidden === hidden) return;
  if (hidden) await takeOut(trx, bodegaId);
  await trx.updateTable('map_places').set({ hidden }).where('id', '=', bodegaId).execute();
  if (!hidden) {
    await queueShares(trx, [
      { kind: 'bodega', bodega_id: bodegaId, n: 1, id_sum: bodegaId },
      { kind: 'cat', bodega_id: bodegaId, n: place.cats, id_sum: Number(place.cat_id_sum) },
    ]);
  }
}

async function applyVisibility(trx: Kysely<DB>, event: VisibilityEvent): Promise<void> {
  const { target_type, target_id, parent_id } = event.data;
  const hidden = event.type === 'ContentHidden';
  if (target_type === 'bodega') await bodegaVisibility(trx, target_id, hidden);
  else if (target_type === 'cat' && parent_id !== null)
    await catVisibility(trx, target_id, parent_id, hidden);
}

/** Updates the places and queues the cell changes of an event the batch plan does not fold. */
async function queueUnfolded(trx: Kysely<DB>, e: RecordedEvent): Promise<void> {
  const event = e as RecordedEvent<Exclude<Handled, 'BodegaAdded' | 'CatAdded' | 'CatDeleted'>>;
  switch (event.type) {
    case 'BodegaUpdated': {
      const { bodega_id: id, latitude, longitude } = event.data;
      const place = await trx
        .selectFrom('map_places')
        .select(['latitude', 'longitude', 'cats', 'cat_id_sum'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!place || (place.latitude === latitude && place.longitude === longitude)) return;
      await takeOut(trx, id);
      await trx.updateTable('map_places').set({ latitude, longitude }).where('id', '=', id).execute();
      await queueShares(trx, [
        { kind: 'bodega', bodega_id: id, n: 1, id_sum: id },
        { kind: 'cat', bodega_id: id, n: place.cats, id_sum: Number(place.cat_id_sum) },
      ]);
      return;
    }
    case 'BodegaDeleted':
      await takeOut(trx, event.data.bodega_id);
      await trx.deleteFrom('map_places').where('id', '=', event.data.bodega_id).execute();
      return;
    case 'ContentHidden':
    case 'ContentRestored':
      return applyVisibility(trx, event);
    default:
      assertNever(event);
  }
}

const queueMapEvents = plannedApply(mapBatch, queueUnfolded);

export const mapProjection: Projection = {
  name: 'map',
  // The queue is empty outside a transaction; its shadow is where replay queues.
  tables: ['map_places', 'map_cells', 'map_pending', 'map_hidden_cats'],
  handles: HANDLES,
  apply: queueMapEvents.apply,
  async applyBatch(trx, events) {
    replaying.add(trx);
    await queueMapEvents.applyBatch(trx, events);
    // Folds the queue now: replay's shadow tables have no trigger.
    await sql`select public.map_flush_pending()`.execute(trx);
  },
};
