import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEmbedded } from '../../helpers/embedded-only.ts';
import { buildApp } from '../../../server/app.ts';
import { openDatabase, type Database } from '../../../server/db/database.ts';
import { migrateToLatest } from '../../../server/db/migrate.ts';
import { createInlineQueue } from '../../../server/queue/inline.ts';
import { createLogger, createServices } from '../../../server/services.ts';
import { call, testConfig } from '../../helpers/app.ts';

// Embedded storage runs PGlite in a worker thread under a supervisor (server/db/pglite-host.ts).
// A backend that hangs (as PGlite's protocol loop does when its backend dies, upstream issue 1058)
// or a storage thread that dies must not freeze the app: requests get 503 within seconds, the thread
// is replaced by one that reopens the data directory from disk, and requests succeed again, with
// every committed write still there, without restarting the process.
const DEADLINE_MS = 1500;
/** The supervisor's heartbeat period for that deadline (a fifth of it): the last beat before a
 * freeze can be up to one period old, so the deadline can pass that much before the request's. */
const BEAT_MS = DEADLINE_MS / 5;

let dir: string;
let database: Database;
let app: FastifyInstance;

async function untilReady(limitMs = 90_000): Promise<number> {
  const started = Date.now();
  while (database.embedded!.status !== 'ready') {
    if (Date.now() - started > limitMs) throw new Error(`storage not back after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

async function register(username: string) {
  return call(app, 'POST', '/api/auth/register', {
    username,
    email: `${username}@example.com`,
    password: 'correct horse battery staple',
  });
}

async function login(username: string) {
  return call(app, 'POST', '/api/auth/login', { username, password: 'correct horse battery staple' });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-embedded-'));
  database = await openDatabase({
    url: null,
    dataDir: dir,
    embeddedDeadlineMs: DEADLINE_MS,
    embeddedTestHooks: true,
  });
  await migrateToLatest(database.db);
  const config = testConfig();
  const services = await createServices(config, {
    database,
    queue: createInlineQueue(database, { pollMs: 200 }),
    migrate: false,
    logger: createLogger(config),
  });
  app = await buildApp(services, { serveClient: false });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await app?.services.queue.close();
  await database?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describeEmbedded('embedded storage under its supervisor', () => {
  it('answers 503 within seconds when the backend hangs, then recovers from disk', async () => {
    expect((await register('before_freeze')).status).toBe(201);

    database.embedded!.injectFault('freeze');
    const started = Date.now();
    // In flight while the backend hangs: failed when the heartbeat deadline passes, not left hanging.
    const stuck = await login('before_freeze');
    const waited = Date.now() - started;
    expect(stuck.status).toBe(503);
    expect(stuck.body).toMatchObject({ code: 'unavailable' });
    expect(waited).toBeGreaterThanOrEqual(DEADLINE_MS - BEAT_MS - 100);
    expect(waited).toBeLessThan(DEADLINE_MS + 5000);

    // While the thread is being replaced, new requests fail at once instead of queueing.
    if (database.embedded!.status !== 'ready') {
      const during = Date.now();
      expect((await login('before_freeze')).status).toBe(503);
      expect(Date.now() - during).toBeLessThan(1000);
    }

    await untilReady();
    expect(database.embedded!.restarts).toBe(1);
    const after = await login('before_freeze');
    expect(after.status).toBe(200);
    expect(after.body.user.username).toBe('before_freeze');
    expect((await register('after_freeze')).status).toBe(201);
  });

  it('recovers when the storage thread dies', async () => {
    database.embedded!.injectFault('crash');
    const crashed = await login('after_freeze');
    expect([200, 503]).toContain(crashed.status); // 200 only if the query beat the crash
    await new Promise((resolve) => setTimeout(resolve, 200));
    await untilReady();
    expect(database.embedded!.restarts).toBe(2);
    expect((await login('before_freeze')).status).toBe(200);
    expect((await login('after_freeze')).status).toBe(200);
  });

  it('does not run the rest of a transaction on the new thread', async () => {
    await sql`create table if not exists fault_probe (n int not null)`.execute(database.db);
    const lostSession = database.embedded!.session();
    const outcome = database.db.transaction().execute(async (trx) => {
      await sql`insert into fault_probe values (1)`.execute(trx);
      database.embedded!.injectFault('freeze');
      // Hangs with the backend, fails at the deadline; the transaction never commits.
      await sql`insert into fault_probe values (2)`.execute(trx);
      await new Promise((resolve) => setTimeout(resolve, 10));
    });
    await expect(outcome).rejects.toMatchObject({ code: '08006' });
    await untilReady();
    // A statement of a session begun on the lost thread fails too, rather than autocommitting.
    await expect(lostSession.query('insert into fault_probe values (3)', [])).rejects.toMatchObject({
      code: '08006',
    });
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from fault_probe`.execute(
      database.db,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('counts restarts in /metrics', async () => {
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/^embedded_storage_restarts_total\{[^}]*\} 3$/m);
  });
});

describeEmbedded('in-memory embedded storage', () => {
  it('fails every query with 503-mapped errors once its thread is gone, instead of hanging', async () => {
    const memory = await openDatabase({ url: null, embeddedTestHooks: true });
    try {
      expect((await sql<{ n: number }>`select 1 as n`.execute(memory.db)).rows).toEqual([{ n: 1 }]);
      memory.embedded!.injectFault('crash');
      await expect(sql`select pg_sleep(0.5)`.execute(memory.db)).rejects.toMatchObject({ code: '08006' });
      // Nothing on disk to reopen: it stays down rather than coming back empty.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(memory.embedded!.status).toBe('failed');
      expect(memory.embedded!.restarts).toBe(0);
      await expect(sql`select 1`.execute(memory.db)).rejects.toMatchObject({ code: '08006' });
    } finally {
      await memory.close();
    }
  });
});

describeEmbedded('an in-memory database started from a dump', () => {
  it('holds what the dumped one held, and each goes its own way after', async () => {
    const first = await openDatabase({ url: null });
    const copyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-dump-'));
    const file = path.join(copyDir, 'dump.tar');
    let copy: Database | null = null;
    try {
      await sql`create table notes (id int primary key, body text)`.execute(first.db);
      await sql`insert into notes values (1, 'kept')`.execute(first.db);
      fs.writeFileSync(file, await first.embedded!.dump());
      copy = await openDatabase({ url: null, embeddedCopyOf: file });
      expect((await sql`select * from notes`.execute(copy.db)).rows).toEqual([{ id: 1, body: 'kept' }]);
      await sql`insert into notes values (2, 'only in the copy')`.execute(copy.db);
      await sql`delete from notes`.execute(first.db);
      expect((await sql`select id from notes`.execute(copy.db)).rows).toEqual([{ id: 1 }, { id: 2 }]);
      expect((await sql`select id from notes`.execute(first.db)).rows).toEqual([]);
    } finally {
      await copy?.close();
      await first.close();
      fs.rmSync(copyDir, { recursive: true, force: true });
    }
  });

  it('is refused with a data directory, which it would have to overwrite', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-copy-dir-'));
    try {
      await expect(
        openDatabase({ url: null, dataDir, embeddedCopyOf: path.join(dataDir, 'dump.tar') }),
      ).rejects.toThrow('copyOf starts an in-memory database only');
      // Refused before anything was written, and the directory's lock is given back.
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
