// The one order of locks (events/locks.ts): a write's declared locks are taken sorted into it, a
// lock asked for after one that comes later in it is refused, and no code takes an advisory lock
// any other way, so no two writes can take two locks in opposite orders and wait on each other.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HeldLocks,
  LOCK_ORDER,
  LockOrderError,
  accountLock,
  bodegaNameLock,
  compareLocks,
  moderationLock,
  ratingLock,
  reporterLock,
  reviewLock,
  roleChangeLock,
  savesLock,
  targetLock,
  targetPhotosLock,
  uploadQuotaLock,
  type Lock,
} from '../../../server/events/locks.ts';
import { writeTransaction } from '../../../server/events/store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/storage.ts';

const cat = { type: 'cat' as const, id: 7 };

/** One lock of each kind, as LOCK_ORDER lists them. */
const ONE_OF_EACH: Lock[] = [
  accountLock(3, 'shared'),
  bodegaNameLock('corner deli|1 main st'),
  roleChangeLock(3),
  reporterLock(3),
  savesLock(3),
  uploadQuotaLock(3),
  moderationLock('cat', 7),
  targetPhotosLock(cat),
  targetLock(cat, 'shared'),
  reviewLock(cat, 3),
  ratingLock(cat),
];

function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(dir, file));
}

describe('the order of locks', () => {
  it('has a place for every kind of lock, once', () => {
    expect(ONE_OF_EACH.map((lock) => lock.kind)).toEqual([...LOCK_ORDER]);
  });

  it('is taken from locks.ts alone: no other code writes advisory-lock SQL', () => {
    const locksFile = path.join('server', 'events', 'locks.ts');
    const takers = ['server', 'workers', 'scripts']
      .flatMap(sources)
      .filter((file) => file !== locksFile && /pg_(try_)?advisory/.test(fs.readFileSync(file, 'utf8')));
    expect(takers).toEqual([]);
  });

  it('takes declared locks in its order, whatever order they are declared in', () => {
    const taking = new HeldLocks().toTake([...ONE_OF_EACH].reverse());
    expect(taking).toEqual(ONE_OF_EACH);
    // Two locks of one kind: by what they lock, numbers as numbers.
    const targets = [
      targetLock({ type: 'cat', id: 10 }, 'exclusive'),
      targetLock({ type: 'cat', id: 9 }, 'shared'),
    ];
    expect(new HeldLocks().toTake(targets).map((lock) => lock.id)).toEqual([
      ['cat', 9],
      ['cat', 10],
    ]);
    expect(
      compareLocks(targetLock({ type: 'bodega', id: 50 }, 'shared'), targetLock(cat, 'shared')),
    ).toBeLessThan(0);
  });

  it('refuses a lock that comes before one the transaction holds, and a shared lock made exclusive', () => {
    const held = new HeldLocks();
    held.add(held.toTake([accountLock(3, 'shared'), targetLock(cat, 'shared')]));
    // A deletion of the cat takes its photos before the cat: after the cat's lock, that is refused.
    expect(() => held.toTake([targetPhotosLock(cat)])).toThrow(LockOrderError);
    expect(() => held.toTake([targetLock(cat, 'exclusive')])).toThrow(LockOrderError);
    // What it holds already is no new lock; what comes after is taken.
    expect(held.toTake([accountLock(3, 'shared'), targetLock(cat, 'shared'), reviewLock(cat, 3)])).toEqual([
      reviewLock(cat, 3),
    ]);
  });
});

describe('locks taken by write transactions', () => {
  let testDb: TestDatabase;

  beforeAll(async () => {
    testDb = await createTestDatabase();
  });

  afterAll(async () => {
    await testDb.drop();
  });

  it('refuses, and rolls back, a write that asks for a lock out of order', async () => {
    const { db } = testDb.database;
    await expect(
      writeTransaction(
        db,
        async (tx) => {
          await tx.lock([targetPhotosLock(cat)]);
        },
        { locks: [targetLock(cat, 'shared')] },
      ),
    ).rejects.toThrow(LockOrderError);
  });

  it('lets two writes that declare the same locks in opposite orders both finish', async () => {
    const { db } = testDb.database;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    // Declared the other way round, the second would take the cat's lock and wait for its photos
    // while the first, holding the photos, waited for the cat.
    const first = writeTransaction(
      db,
      async () => {
        entered();
        await held;
        return 'first';
      },
      { locks: [targetLock(cat, 'shared'), targetPhotosLock(cat)] },
    );
    await inside;
    const second = writeTransaction(db, async () => 'second', {
      locks: [targetPhotosLock(cat), targetLock(cat, 'exclusive')],
    });
    setTimeout(release, 300);
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
  });
});
