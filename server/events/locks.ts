// Every advisory lock the app takes, and the one order a transaction takes them in. A command
// declares the locks it needs as data (accountLock(id, 'shared'), targetLock(target, 'shared'),
// ...); WriteTx.lock (store.ts) takes them in this order, in one statement, and refuses one that
// would come before a lock the transaction holds already. Two transactions that take locks in one
// order can never each hold a lock the other waits for, so these never deadlock among themselves.
// docs/architecture.md ("Locks and their order") says what each protects and why it sits where it
// does. Advisory locks are per database, so test databases on one server never see each other's;
// nothing outside this file writes advisory-lock SQL (a test checks).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB, ModerationTargetType, TargetType } from '../db/schema.ts';

/** Held at session level for the whole of a replay or --verify: one run at a time. */
export const REPLAY_LOCK = 7_031_001;

/**
 * The writer gate: every append takes it shared for its transaction; replay's swap takes it
 * exclusively, so appends wait at the gate (holding nothing else of the log) while the swap runs.
 */
export const WRITERS_LOCK = 7_031_002;

/** Advisory lock class for "a bodega with this match key", apart from any other advisory locks. */
const BODEGA_NAME_CLASS = 2829;

/** The kinds of lock, in the order a transaction takes them. */
export const LOCK_ORDER = [
  'account',
  'bodegaName',
  'roleChange',
  'reporter',
  'saves',
  'uploadQuota',
  'moderation',
  'targetPhotos',
  'target',
  'review',
  'rating',
] as const;

export type LockKind = (typeof LOCK_ORDER)[number];

export type LockMode = 'shared' | 'exclusive';

/**
 * One advisory lock: its kind, what it is the lock of (`id`, compared part by part when two locks
 * of a kind are taken together) and its mode.
 */
export type Lock = {
  readonly kind: LockKind;
  readonly id: readonly (string | number)[];
  readonly mode: LockMode;
};

type Target = { type: TargetType; id: number };

/**
 * The lock that orders a person's writes against the deletion of their account: shared by every
 * write they make (runCommand's account hold), exclusive for the deletion. First of all, so that
 * neither can hold what the other needs while it waits: a deletion locks the account row and then
 * the photos of each cat or bodega the person has photos of (and the rows of their reviews and
 * photos), while those writes lock the target first and the account row only when they seal the
 * person's text; in those two orders they deadlocked.
 */
export function accountLock(userId: number, mode: LockMode): Lock {
  return { kind: 'account', id: [userId], mode };
}

/** Serialises adds and renames of bodegas with the same name and address (its match key). */
export function bodegaNameLock(matchKey: string): Lock {
  return { kind: 'bodegaName', id: [matchKey], mode: 'exclusive' };
}

/** One role change per account at a time, so "changed" is true of the log. */
export function roleChangeLock(userId: number): Lock {
  return { kind: 'roleChange', id: [userId], mode: 'exclusive' };
}

/** One report by a person at a time, so two filed together cannot both slip under the daily limit. */
export function reporterLock(userId: number): Lock {
  return { kind: 'reporter', id: [userId], mode: 'exclusive' };
}

/** One save decision per person at a time, so two racing clicks cannot both append. */
export function savesLock(userId: number): Lock {
  return { kind: 'saves', id: [userId], mode: 'exclusive' };
}

/** One upload per person at a time past the quota's count, so parallel uploads cannot slip past it together. */
export function uploadQuotaLock(userId: number): Lock {
  return { kind: 'uploadQuota', id: [userId], mode: 'exclusive' };
}

/** A piece of content's moderation stream, taken in turn: one report or decision on it at a time. */
export function moderationLock(type: ModerationTargetType, id: number): Lock {
  return { kind: 'moderation', id: [type, id], mode: 'exclusive' };
}

/**
 * A cat's or bodega's photos: uploads, primary switches, photo deletions and the photos job's
 * outcomes for one target commit one at a time, in the order the log then replays them; its
 * deletion takes it too, before the target's own lock.
 */
export function targetPhotosLock(target: Target): Lock {
  return { kind: 'targetPhotos', id: [target.type, target.id], mode: 'exclusive' };
}

/**
 * A cat or bodega: shared by a write that hangs off it (a review, a save, a report or decision on
 * it), exclusive for its deletion. Taken before the transaction's first row lock or write: replay
 * applies transactions in transaction-id order, and a transaction gets its id at its first row lock
 * or write, while an advisory lock gives none. So when one of these has to wait for another, it
 * gets its id only after the other has committed, and comes after it in the log, as it did in the
 * live tables. (Without it, a review could take its id after a concurrent deletion took its own,
 * commit first, be removed by the deletion, and come back when the log is replayed.)
 */
export function targetLock(target: Target, mode: LockMode): Lock {
  return { kind: 'target', id: [target.type, target.id], mode };
}

/**
 * A person's review of one target: two posts by one person for one target queue here, and the
 * second then sees the first's row (the unique index stays the last word).
 */
export function reviewLock(target: Target, userId: number): Lock {
  return { kind: 'review', id: [target.type, target.id, userId], mode: 'exclusive' };
}

/**
 * A target's rating: its jobs take turns, each reading the reviews only after the previous one
 * committed its figure, so the last to run always records the figure of every review so far.
 */
export function ratingLock(target: Target): Lock {
  return { kind: 'rating', id: [target.type, target.id], mode: 'exclusive' };
}

/** The lock's key, as the advisory lock functions take it (one bigint, or two integers). */
function keyOf(lock: Lock): RawBuilder<unknown> {
  const [a, b, c] = lock.id;
  switch (lock.kind) {
    case 'account':
      return hashed(`account-writes-${a}`);
    case 'bodegaName':
      return sql`${BODEGA_NAME_CLASS}, hashtext(${String(a)})`;
    case 'roleChange':
      return hashed(`account-${a}`);
    case 'reporter':
      return hashed(`reports-by-${a}`);
    case 'saves':
      return sql`hashtext(${`saves-${a}`})`;
    case 'uploadQuota':
      return hashed(`upload-quota-${a}`);
    case 'moderation':
      return hashed(`moderation-${a}-${b}`);
    case 'targetPhotos':
      return hashed(`photos-${a}-${b}`);
    case 'target':
      return hashed(`target-${a}-${b}`);
    case 'review':
      return hashed(`review-${a}-${b}-${c}`);
    case 'rating':
      return hashed(`rating-${a}-${b}`);
  }
}

function hashed(name: string): RawBuilder<unknown> {
  return sql`hashtextextended(${name}, 0)`;
}

/** The call that takes the lock until the transaction ends, for a statement's select list. */
export function lockCall(lock: Lock): RawBuilder<unknown> {
  return lock.mode === 'shared'
    ? sql`pg_advisory_xact_lock_shared(${keyOf(lock)})`
    : sql`pg_advisory_xact_lock(${keyOf(lock)})`;
}

/** The writer gate, shared, as a call for a statement's select list (see WRITERS_LOCK). */
export const WRITER_GATE: RawBuilder<unknown> = sql`pg_advisory_xact_lock_shared(${WRITERS_LOCK})`;

/** Negative, zero or positive as `a` comes before, with or after `b` in the order locks are taken. */
export function compareLocks(a: Lock, b: Lock): number {
  const byKind = LOCK_ORDER.indexOf(a.kind) - LOCK_ORDER.indexOf(b.kind);
  if (byKind !== 0) return byKind;
  for (let i = 0; i < Math.max(a.id.length, b.id.length); i++) {
    const x = a.id[i];
    const y = b.id[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

function lockName(lock: Lock): string {
  return `${lock.kind}(${lock.id.join(', ')}, ${lock.mode})`;
}

/** A transaction asked for a lock out of order: a bug in the code that asked, never the caller's. */
export class LockOrderError extends Error {
  override name = 'LockOrderError';
}

/** The locks one transaction holds, to decide which of the ones it asks for next it may take. */
export class HeldLocks {
  private readonly held: Lock[] = [];

  /**
   * The locks of `wanted` this transaction does not hold yet, in the order to take them. Throws
   * LockOrderError for one that comes before a lock held already, or that would make a shared
   * lock exclusive: taking it could deadlock with a transaction that takes the two in order.
   */
  toTake(wanted: readonly Lock[]): Lock[] {
    const last = this.held.at(-1);
    const fresh: Lock[] = [];
    for (const lock of [...wanted].sort(compareLocks)) {
      const same =
        this.held.find((h) => compareLocks(h, lock) === 0) ?? fresh.find((f) => compareLocks(f, lock) === 0);
      if (same && (same.mode === 'exclusive' || lock.mode === 'shared')) continue;
      if (same)
        throw new LockOrderError(
          `${lockName(lock)} asked for while holding it shared: take it exclusive from the start`,
        );
      if (last && compareLocks(lock, last) < 0)
        throw new LockOrderError(
          `${lockName(lock)} asked for after ${lockName(last)}: locks are taken in the order of LOCK_ORDER (events/locks.ts)`,
        );
      fresh.push(lock);
    }
    return fresh;
  }

  /** Notes locks taken (in order, as toTake answered them). */
  add(taken: readonly Lock[]): void {
    this.held.push(...taken);
  }
}

/**
 * Replay's hold on the writer gate for its swap: exclusive, so new appends wait at the gate and
 * the ones in flight finish first. Alone in its transaction, which takes no other advisory lock.
 */
export async function closeWriterGate(trx: Kysely<DB>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${WRITERS_LOCK})`.execute(trx);
}

/** Takes the replay lock on a session of its own if no one holds it; false when someone does. */
export async function tryReplayLock(session: Kysely<DB>): Promise<boolean> {
  const { rows } = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_lock(${REPLAY_LOCK}) as locked`.execute(session);
  return rows[0]?.locked === true;
}

export async function releaseReplayLock(session: Kysely<DB>): Promise<void> {
  await sql`select pg_advisory_unlock(${REPLAY_LOCK})`.execute(session);
}

/**
 * A turn at work that one process at a time does (the reconciler's pass), for the rest of the
 * transaction: true when it is this one's. It never waits, so it takes its place in no order.
 */
export async function tryTurn(trx: Kysely<DB>, name: string): Promise<boolean> {
  const { rows } = await sql<{
    ok: boolean;
  }>`select pg_try_advisory_xact_lock(${hashed(name)}) as ok`.execute(trx);
  return rows[0]?.ok === true;
}
