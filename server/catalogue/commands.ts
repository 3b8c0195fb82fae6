// The catalogue's write workflows, each run inside the caller's transaction: load and lock the
// aggregates involved, let the deciders decide, append what they decided.
import type { Kysely } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import { ConcurrencyError, NotFound } from '../errors.ts';
import { nextId, type EventStore, type WriteTx } from '../events/store.ts';
import { streamIds, type BodegaFields, type CatFields, type EventMetadata } from '../events/types.ts';
import { bodegaNameLock, targetLock, targetPhotosLock, type Lock } from '../events/locks.ts';
import type { Reader, Target } from '../events/targets.ts';
import { decideBodega, type BodegaText } from './bodega.ts';
import { decideCat, type CatEdit } from './cat.ts';
import { bodegaMatchKey } from './normalize.ts';
import { loadBodega, loadCat } from './streams.ts';
import type { Coordinates } from './validation.ts';

export type WriteContext = { tx: WriteTx; store: EventStore; metadata: EventMetadata };

/**
 * What deleting a cat or bodega asks of its photos. The photos domain answers (routes.ts hands it
 * to the catalogue's routes), so the catalogue never reaches into the photos' commands.
 */
export type TargetPhotos = {
  /**
   * Deletes every photo of the target, each the way a single deletion does (its PhotoDeleted
   * dispatches the job that removes its files), before the target's own deletion event. The
   * deletion holds the target's photo lock (targetPhotosLock), taken before any row lock.
   */
  deleteAll(tx: WriteTx, store: EventStore, target: Target, metadata: EventMetadata): Promise<unknown>;
};

/** The ids a deletion removed, by kind: what else holds them (readers' lists) lets them go too. */
export type Removed = Record<TargetType, number[]>;

/**
 * Who a name-and-address lookup is for: a caller sees only the bodegas shown to them (a bodega
 * moderation hid is not there for anyone but its creator and moderators), an operator's tool all.
 */
export type LookupFor = { reader: Reader } | 'operator';

/**
 * The live bodega with this name and address (case- and whitespace-insensitive) that `lookup` may
 * see, if any; a shown one before a hidden one. To a caller who may not see a hidden bodega, its
 * name and address are free: adding one makes a new bodega of their own, so nothing of the hidden
 * one (its text, its id, that it exists) reaches them, and what they add is not hidden with it.
 */
export async function findBodegaIdByKey(
  db: Kysely<DB>,
  matchKey: string,
  lookup: LookupFor,
): Promise<number | null> {
  let query = db.selectFrom('bodegas').select('id').where('match_key', '=', matchKey);
  if (lookup !== 'operator' && lookup.reader?.role !== 'moderator') {
    const readerId = lookup.reader?.id ?? null;
    query = query.where((eb) =>
      readerId === null
        ? eb('hidden', '=', false)
        : eb.or([eb('hidden', '=', false), eb('created_by', '=', readerId)]),
    );
  }
  const row = await query.orderBy('hidden').orderBy('id').executeTakeFirst();
  return row ? Number(row.id) : null;
}

/** Who adds or edits: the signed-in caller, or `null` for the operator's seed (which sees everything). */
export type Author = Reader;

function lookupOf(author: Author): LookupFor {
  return author === null ? 'operator' : { reader: author };
}

export async function addBodega(
  { tx, store, metadata }: WriteContext,
  fields: BodegaFields,
  author: Author,
): Promise<number> {
  const { trx } = tx;
  const key = bodegaMatchKey(fields.name, fields.address);
  await tx.lock([bodegaNameLock(key)]);
  const duplicateOf = await findBodegaIdByKey(trx, key, lookupOf(author));
  const createdBy = author?.id ?? null;
  const bodegaId = await nextId(trx, 'bodega_ids');
  const events = decideBodega({ type: 'AddBodega', bodegaId, createdBy, fields, duplicateOf }, null);
  await store.append(tx, streamIds.bodega(bodegaId), 0, events, { metadata });
  return bodegaId;
}

/**
 * The bodega a new cat lives in: found by name and address among those the caller may see, or
 * added for the caller.
 */
export async function findOrAddBodega(
  ctx: WriteContext,
  fields: BodegaFields,
  author: Author,
): Promise<number> {
  const key = bodegaMatchKey(fields.name, fields.address);
  await ctx.tx.lock([bodegaNameLock(key)]);
  const found = await findBodegaIdByKey(ctx.tx.trx, key, lookupOf(author));
  // A share lock keeps the bodega from being deleted or edited until the cat is in.
  const bodega = found === null ? null : await loadBodega(ctx.tx.trx, found, 'share');
  if (bodega && !bodega.deleted) return bodega.id;
  return addBodega(ctx, fields, author);
}

export async function addCat(
  ctx: WriteContext,
  bodegaId: number,
  fields: CatFields,
  createdBy: number | null,
): Promise<number> {
  const catId = await nextId(ctx.tx.trx, 'cat_ids');
  const events = decideCat({ type: 'AddCat', catId, bodegaId, createdBy, fields }, null);
  await ctx.store.append(ctx.tx, streamIds.cat(catId), 0, events, { metadata: ctx.metadata });
  return catId;
}

export async function editCat(
  ctx: WriteContext,
  catId: number,
  actorId: number,
  expectedVersion: number | null,
  edit: CatEdit,
): Promise<void> {
  const cat = await loadCat(ctx.tx.trx, catId, 'update');
  const events = decideCat({ type: 'EditCat', actorId, expectedVersion, edit }, cat);
  if (events.length > 0)
    await ctx.store.append(ctx.tx, streamIds.cat(catId), cat!.version, events, { metadata: ctx.metadata });
}

export async function deleteCat(
  ctx: WriteContext,
  photos: TargetPhotos,
  catId: number,
  actorId: number,
  expectedVersion: number | null,
): Promise<Removed> {
  const bodegaId = await bodegaOfCat(ctx.tx.trx, catId);
  // Before any row lock: a row lock gives this transaction its id, and replay follows transaction
  // ids. An upload, review or save that commits while this waits for these locks must have the
  // lower id, or replay would add its row after the cat had gone (see targetLock).
  await ctx.tx.lock(deletionLocks([{ type: 'cat', id: catId }]));
  await loadBodega(ctx.tx.trx, bodegaId, 'share');
  const cat = await loadCat(ctx.tx.trx, catId, 'update');
  const events = decideCat({ type: 'DeleteCat', actorId, expectedVersion }, cat);
  await photos.deleteAll(ctx.tx, ctx.store, { type: 'cat', id: catId }, ctx.metadata);
  await ctx.store.append(ctx.tx, streamIds.cat(catId), cat!.version, events, { metadata: ctx.metadata });
  return { cat: [catId], bodega: [] };
}

export type BodegaEdit = {
  text: BodegaText;
  coordinates: Coordinates | null;
  geocoded: Coordinates | null | undefined;
};

export async function editBodega(
  ctx: WriteContext,
  bodegaId: number,
  actor: NonNullable<Author>,
  expectedVersion: number | null,
  edit: BodegaEdit,
): Promise<void> {
  const actorId = actor.id;
  const key = bodegaMatchKey(edit.text.name, edit.text.address);
  await ctx.tx.lock([bodegaNameLock(key)]);
  const bodega = await loadBodega(ctx.tx.trx, bodegaId, 'update');
  const renamed = bodega !== null && key !== bodegaMatchKey(bodega.fields.name, bodega.fields.address);
  const duplicateOf = renamed ? await findBodegaIdByKey(ctx.tx.trx, key, lookupOf(actor)) : null;
  const events = decideBodega({ type: 'EditBodega', actorId, expectedVersion, duplicateOf, ...edit }, bodega);
  if (events.length > 0)
    await ctx.store.append(ctx.tx, streamIds.bodega(bodegaId), bodega!.version, events, {
      metadata: ctx.metadata,
    });
}

/**
 * Deletes the bodega and, first, every cat in it, each cat's photos before the cat and the
 * bodega's own photos before the bodega: all or nothing, in the caller's transaction.
 */
export async function deleteBodega(
  ctx: WriteContext,
  photos: TargetPhotos,
  bodegaId: number,
  actorId: number,
  expectedVersion: number | null,
): Promise<Removed> {
  // Photo and target locks before any row lock, as in deleteCat: the bodega's and those of the
  // cats it has now.
  const catIds = await catsOfBodega(ctx.tx.trx, bodegaId);
  const cats = catIds.map((id) => ({ type: 'cat' as const, id }));
  await ctx.tx.lock(deletionLocks([...cats, { type: 'bodega', id: bodegaId }]));
  const bodega = await loadBodega(ctx.tx.trx, bodegaId, 'update');
  const events = decideBodega({ type: 'DeleteBodega', actorId, expectedVersion }, bodega);
  // A cat added since the first read has locks this transaction could not take first.
  const current = await catsOfBodega(ctx.tx.trx, bodegaId);
  if (current.some((id) => !catIds.includes(id))) throw new ConcurrencyError();
  for (const catId of current) {
    const cat = await loadCat(ctx.tx.trx, catId, 'update');
    const removal = decideCat({ type: 'DeleteCatWithBodega', bodegaId }, cat);
    if (removal.length === 0) continue;
    await photos.deleteAll(ctx.tx, ctx.store, { type: 'cat', id: catId }, ctx.metadata);
    await ctx.store.append(ctx.tx, streamIds.cat(catId), cat!.version, removal, { metadata: ctx.metadata });
  }
  await photos.deleteAll(ctx.tx, ctx.store, { type: 'bodega', id: bodegaId }, ctx.metadata);
  await ctx.store.append(ctx.tx, streamIds.bodega(bodegaId), bodega!.version, events, {
    metadata: ctx.metadata,
  });
  return { cat: current, bodega: [bodegaId] };
}

export async function verifyBodega(ctx: WriteContext, bodegaId: number, isVerified: boolean): Promise<void> {
  const bodega = await loadBodega(ctx.tx.trx, bodegaId, 'update');
  const events = decideBodega({ type: 'VerifyBodega', isVerified }, bodega);
  if (events.length > 0)
    await ctx.store.append(ctx.tx, streamIds.bodega(bodegaId), bodega!.version, events, {
      metadata: ctx.metadata,
    });
}

/** What a deletion of these targets locks: their photos, and each target exclusively. */
function deletionLocks(targets: Target[]): Lock[] {
  return targets.flatMap((target) => [targetPhotosLock(target), targetLock(target, 'exclusive')]);
}

async function bodegaOfCat(trx: Kysely<DB>, catId: number): Promise<number> {
  const row = await trx.selectFrom('cats').select('bodega_id').where('id', '=', catId).executeTakeFirst();
  if (!row) throw new NotFound('Cat not found');
  return Number(row.bodega_id);
}

async function catsOfBodega(trx: Kysely<DB>, bodegaId: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('cats')
    .select('id')
    .where('bodega_id', '=', bodegaId)
    .orderBy('id')
    .execute();
  return rows.map((r) => Number(r.id));
}
