// `npm run role -- <username> moderator|member` as an operator runs it: a separate process on the
// test database (real Postgres), or in embedded mode on a data directory no app holds.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrate.ts';
import { nextId } from '../../../server/events/store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/storage.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-role-'));
const dataDir = path.join(root, 'data');
let postgres: TestDatabase | null = null;
let username: string;

/**
 * The database for a moment: the test database's pool, or the embedded data directory opened and
 * closed again, since the script needs its lock.
 */
async function withDatabase<T>(use: (database: Database) => Promise<T>): Promise<T> {
  if (postgres) return use(postgres.database);
  const database = await openDatabase({ url: null, dataDir });
  try {
    return await use(database);
  } finally {
    await database.close();
  }
}

function runRole(...args: string[]): Promise<{ code: number; output: string }> {
  const env = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    SEED_ON_EMPTY: 'false',
    REDIS_URL: '',
    DATABASE_URL: postgres?.url ?? '',
    DATA_DIR: dataDir,
    UPLOAD_DIR: path.join(root, 'uploads'),
  };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'scripts/role.ts', ...args],
      { env, timeout: 90_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
  });
}

/** Whether the user is a moderator, and how many RoleChanged events the log holds: one opening. */
async function roleState(): Promise<{ moderator: boolean; events: number }> {
  return withDatabase(async ({ db }) => {
    const row = await db
      .selectFrom('moderators')
      .innerJoin('users', 'users.id', 'moderators.user_id')
      .select('moderators.user_id')
      .where('users.username', '=', username)
      .executeTakeFirst();
    const count = await db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('type', '=', 'RoleChanged')
      .executeTakeFirstOrThrow();
    return { moderator: row !== undefined, events: Number(count.n) };
  });
}

beforeAll(async () => {
  if (process.env.TEST_DATABASE_URL) postgres = await createTestDatabase();
  await withDatabase(async ({ db }) => {
    if (!postgres) await migrateToLatest(db);
    const id = await nextId(db, 'user_ids');
    username = `operator_pick${id}`;
    await db
      .insertInto('users')
      .values({ id, username, email: `${username}@example.test`, password_hash: 'not-a-usable-hash' })
      .execute();
  });
}, 120_000);

afterAll(async () => {
  await postgres?.drop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('npm run role', () => {
  it('grants the moderator role once, as an event, and says when nothing changed', async () => {
    const granted = await runRole(username, 'moderator');
    expect(granted.output).toContain(`${username} is now a moderator.`);
    expect(granted.code).toBe(0);

    const again = await runRole(username, 'moderator');
    expect(again.output).toContain(`${username} was already a moderator; nothing changed.`);
    expect(again.code).toBe(0);
    expect(await roleState()).toEqual({ moderator: true, events: 1 });
  }, 200_000);

  it('revokes it', async () => {
    const revoked = await runRole(username, 'member');
    expect(revoked.output).toContain(`${username} is now a member.`);
    expect(revoked.code).toBe(0);
    expect(await roleState()).toEqual({ moderator: false, events: 2 });
  }, 120_000);

  it('names an unknown user and exits 1', async () => {
    const unknown = await runRole('nobody_by_this_name', 'moderator');
    expect(unknown.output).toContain('No user is called "nobody_by_this_name"');
    expect(unknown.code).toBe(1);
  }, 120_000);

  it('prints the usage and exits 2 for a bad role or missing arguments', async () => {
    // The usage is checked before anything is opened, so the three can run side by side.
    const runs = [[username, 'admin'], [username], [username, 'moderator', 'extra']].map((args) =>
      runRole(...args),
    );
    for (const bad of await Promise.all(runs)) {
      expect(bad.output).toContain('Usage: npm run role -- <username> moderator|member');
      expect(bad.code).toBe(2);
    }
    expect(await roleState()).toEqual({ moderator: false, events: 2 });
  }, 120_000);
});
