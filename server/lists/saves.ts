// Saving and unsaving cats and bodegas (as ItemSaved / ItemUnsaved events on the user's saves
// stream) and reading the saved lists back in the catalogue's summary shapes.
import type { BodegaSummary, CatSummary } from '../../contract/catalogue.ts';
import { sql, type Kysely } from 'kysely';
import type { DB, TargetType } from '../db/schema.ts';
import { savesLock, targetLock } from '../events/locks.ts';
import type { EventStore, Write, WriteTx } from '../events/store.ts';
import { requireTarget, shownTo } from '../events/targets.ts';
import { streamIds, type EventMetadata, type Role } from '../events/types.ts';
import { decideSave } from './saved-item.ts';
import { toBodegaSummary, toCatSummary, toIso } from '../catalogue/index.ts';
import { listedBodegas, listedCats } from './listed.ts';

export type SaveCommand = {
  userId: number;
  role: Role;
  type: TargetType;
  targetId: number;
  metadata: EventMetadata;
};

/** Whether the user has saved the item: one lookup on the saves primary key. */
export async function isSaved(
  db: Kysely<DB>,
  userId: number,
  type: TargetType,
  id: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('saves')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('target_type', '=', type)
    .where('target_id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Sets whether the item is saved. Asking for the state it is already in appends nothing, so
 * double clicks and retries leave one entry and a quiet log.
 */
export function setSaved(store: EventStore, command: SaveCommand, saved: boolean): Write<void> {
  const target = { type: command.type, id: command.targetId };
  return {
    // One save decision per person at a time; the target stays until commit.
    locks: [savesLock(command.userId), targetLock(target, 'shared')],
    run: (tx) => save(tx, store, command, saved),
  };
}

async function save(tx: WriteTx, store: EventStore, command: SaveCommand, saved: boolean): Promise<void> {
  const { trx } = tx;
  const { userId, role, type, targetId } = command;
  const target = { type, id: targetId };
  const row = await requireTarget(trx, target, { keyShare: true });
  const state = {
    savedNow: await isSaved(trx, userId, type, targetId),
    shown: shownTo({ id: userId, role }, row),
  };
  const events = decideSave({ userId, target, saved }, state);
  if (events.length === 0) return;
  await store.append(tx, streamIds.saves(userId), 'any', events, { metadata: command.metadata });
}

export type Page = { page: number; perPage: number };
export type Saved<T> = T & { saved_at: string };

async function countSaved(db: Kysely<DB>, userId: number, type: TargetType): Promise<number> {
  // Joined with the catalogue so the count always matches the rows a page can show.
  const table = type === 'cat' ? 'cats' : 'bodegas';
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from saves
    join ${sql.table(table)} t on t.id = saves.target_id and not t.hidden
    where saves.user_id = ${userId} and saves.target_type = ${type}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

export async function listSavedCats(
  db: Kysely<DB>,
  userId: number,
  { page, perPage }: Page,
): Promise<{ items: Saved<CatSummary>[]; total: number }> {
  const rows = await listedCats(db, 'saves', userId)
    .select('entry.saved_at')
    .orderBy('entry.saved_at', 'desc')
    .orderBy('cats.id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return {
    items: rows.map((row) => ({ ...toCatSummary(row), saved_at: toIso(row.saved_at) })),
    total: await countSaved(db, userId, 'cat'),
  };
}

export async function listSavedBodegas(
  db: Kysely<DB>,
  userId: number,
  { page, perPage }: Page,
): Promise<{ items: Saved<BodegaSummary>[]; total: number }> {
  const rows = await listedBodegas(db, 'saves', userId)
    .select('entry.saved_at')
    .orderBy('entry.saved_at', 'desc')
    .orderBy('bodegas.id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  return {
    items: rows.map((row) => ({ ...toBodegaSummary(row), saved_at: toIso(row.saved_at) })),
    total: await countSaved(db, userId, 'bodega'),
  };
}
