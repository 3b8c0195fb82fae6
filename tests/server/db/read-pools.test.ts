import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import {
  LagClock,
  createReadPools,
  formatLogPosition,
  mayUseReplica,
  parseLogPosition,
  type Reader,
} from '../../../server/db/read-pools.ts';
import { createEventStore } from '../../../server/events/store.ts';
import { createSearchCache } from '../../../server/search/cache.ts';
import { freePort } from '../../faults/instances.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { createTestDatabase, storageMode, type TestDatabase } from '../../helpers/storage.ts';

const postgres = storageMode() === 'postgres';

describe('log positions', () => {
  it('reads and writes a pg_lsn', () => {
    expect(parseLogPosition('0/3015FE0')).toBe(0x3015fe0n);
    expect(parseLogPosition('16/b374d848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(formatLogPosition((0x16n << 32n) | 0xb374d848n)).toBe('16/B374D848');
    expect(formatLogPosition(parseLogPosition('FFFFFFFF/FFFFFFFF')!)).toBe('FFFFFFFF/FFFFFFFF');
  });

  it('refuses anything else', () => {
    for (const bad of ['', '0', '0/', '/1', '1/2/3', '123456789/0', '0x1/2', 'g/1', '1 / 2', '-1/2'])
      expect(parseLogPosition(bad)).toBeNull();
  });
});

describe('which reads may go to a replica', () => {
  it('sends public reads there, visitors’ pages for visitors only, and nothing else', () => {
    expect(mayUseReplica('public', false)).toBe(true);
    expect(mayUseReplica('public', true)).toBe(true);
    expect(mayUseReplica('visitor', false)).toBe(true);
    expect(mayUseReplica('visitor', true)).toBe(false);
    expect(mayUseReplica('own', false)).toBe(false);
    expect(mayUseReplica('own', true)).toBe(false);
    expect(mayUseReplica(undefined, false)).toBe(false);
  });
});

describe('replica lag', () => {
  it('is 0 for a replica that has replayed the newest position, however long the primary was idle', () => {
    const clock = new LagClock(10_000);
    clock.record(0, 100n);
    for (let at = 1000; at <= 60_000; at += 1000) clock.record(at, 100n);
    expect(clock.lagOf(100n, 60_000)).toBe(0);
  });

  it('is the age of the first sample past what the replica has replayed', () => {
    const clock = new LagClock(10_000);
    clock.record(0, 100n);
    clock.record(1000, 200n);
    clock.record(2000, 300n);
    clock.record(3000, 300n);
    expect(clock.lagOf(300n, 3500)).toBe(0);
    expect(clock.lagOf(250n, 3500)).toBe(1500);
    expect(clock.lagOf(150n, 3500)).toBe(2500);
    expect(clock.lagOf(50n, 3500)).toBe(3500);
  });

  it('keeps enough samples to say a replica is further behind than it keeps', () => {
    const clock = new LagClock(2000);
    for (let at = 0; at <= 10_000; at += 1000) clock.record(at, BigInt(100 + at));
    expect(clock.lagOf(0n, 10_000)).toBeGreaterThan(2000);
    expect(clock.lagOf(10_100n, 10_000)).toBe(0);
  });

  it('is unknown before the primary was sampled', () => {
    expect(new LagClock(1000).lagOf(1n, 0)).toBeNull();
  });
});

describe.skipIf(!postgres)('read pools without a usable replica', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => t.drop());

  it('keeps a replica that does not answer, or is no standby, out of the rotation', async () => {
    const nobody = `postgres://postgres@127.0.0.1:${await freePort()}/postgres`;
    const pools = createReadPools(
      t.database,
      { urls: [nobody, t.url!], maxLagMs: 5000, waitMs: 50 },
      { statementTimeoutMs: null },
    );
    try {
      await pools.check();
      const [down, primaryItself] = pools.replicas();
      expect(down).toMatchObject({ up: false, inRotation: false });
      expect(primaryItself).toMatchObject({ up: false, inRotation: false });
      for (const signedIn of [false, true]) {
        const reader = await pools.reader({ kind: 'public', signedIn, after: null });
        expect(reader.server).toBe('primary');
      }
      const after = parseLogPosition((await pools.positionAfterWrite())!)!;
      const started = Date.now();
      expect((await pools.reader({ kind: 'public', signedIn: false, after })).server).toBe('primary');
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await pools.close();
    }
  });

  it('reads on the primary alone without replicas', async () => {
    const pools = createReadPools(
      t.database,
      { urls: [], maxLagMs: 5000, waitMs: 200 },
      { statementTimeoutMs: null },
    );
    expect(await pools.reader({ kind: 'public', signedIn: false, after: null })).toMatchObject({
      server: 'primary',
      db: t.database.db,
    });
    expect(await pools.positionAfterWrite()).toBeNull();
    await pools.close();
  });

  it('changes the standby token when a transaction that drew an earlier position commits', async () => {
    // The standby form of the token, read here on the primary (where it holds as well): a
    // transaction appends position p and stays open while a later one commits p + 1.
    const standby: Reader = { db: t.database.db, server: 'standby-form', standby: true };
    const cache = createSearchCache(t.database, 10);
    const store = createEventStore([]);
    let calls = 0;
    const compute = async () => ++calls;
    const slow = new pg.Client({ connectionString: t.url! });
    await slow.connect();
    try {
      await slow.query('begin');
      await slow.query(`insert into events (stream_id, stream_version, type, data)
        values ('probe-slow', 1, 'ItemSaved', '{"user_id":1,"target_type":"cat","target_id":1}')`);
      await store.append(t.database.db, 'probe-fast', 'any', [
        { type: 'ItemSaved', data: { user_id: 2, target_type: 'cat', target_id: 2 } },
      ]);
      await cache.get('k', compute, standby);
      await cache.get('k', compute, standby);
      expect(calls).toBe(1);
      await slow.query('commit');
      await cache.get('k', compute, standby);
      expect(calls).toBe(2);
    } finally {
      await slow.end();
    }
  });
});

describe.skipIf(!postgres)('the log position header', () => {
  let owner: TestApp;
  let t: TestApp;
  beforeAll(async () => {
    // The "replica" is the primary itself, which the check keeps out of the rotation: every read
    // runs on the primary, and writes answer their position.
    owner = await createTestApp({ worker: false });
    const url = owner.databaseUrl!;
    t = await createTestApp({
      worker: false,
      sameDatabaseAs: owner,
      config: { databaseUrl: url, replicas: { urls: [url], maxLagMs: 5000, waitMs: 100 } },
    });
  });
  afterAll(async () => {
    await t?.close();
    await owner?.close();
  });

  it('answers a write with the position it produced, and reads keep working with it', async () => {
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { username: 'positioned', email: 'positioned@example.test', password: 'whiskers-123' },
    });
    expect(registered.statusCode).toBe(201);
    const position = registered.headers['x-log-position'];
    expect(typeof position).toBe('string');
    const parsed = parseLogPosition(position as string)!;
    const { rows } = await sql<{ now: string }>`select pg_current_wal_lsn()::text as now`.execute(
      t.services.database.db,
    );
    expect(parsed).toBeLessThanOrEqual(parseLogPosition(rows[0]!.now)!);

    const read = await t.app.inject({
      method: 'GET',
      url: '/api/search/cats',
      headers: { 'x-log-position': position as string },
    });
    expect(read.statusCode).toBe(200);
    expect(read.headers['x-log-position']).toBeUndefined();
  });

  it('refuses a header that is not a log position with 400', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/search/cats',
      headers: { 'x-log-position': 'yesterday' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'invalid_input',
      error: expect.stringMatching(/X-Log-Position/),
    });
  });

  it('lets browsers send and read the header', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/search/cats',
      headers: {
        origin: 'https://example.test',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-log-position',
      },
    });
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain(
      'x-log-position',
    );
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { origin: 'https://example.test' },
    });
    expect(String(read.headers['access-control-expose-headers']).toLowerCase()).toContain('x-log-position');
  });

  it('reports each replica in /metrics', async () => {
    await t.app.reads.check();
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.body).toMatch(/db_replica_up\{[^}]*replica="127\.0\.0\.1:\d+\/[^"]+"[^}]*\} 0/);
    expect(res.body).toMatch(/db_replica_in_rotation\{[^}]*\} 0/);
  });
});

describe('embedded storage', () => {
  it.skipIf(postgres)('reads on its one database whatever the kind', async () => {
    const t = await createTestDatabase();
    try {
      const pools = createReadPools(
        t.database,
        { urls: [], maxLagMs: 5000, waitMs: 200 },
        { statementTimeoutMs: null },
      );
      expect((await pools.reader({ kind: 'public', signedIn: false, after: 1n })).db).toBe(t.database.db);
      await pools.close();
    } finally {
      await t.drop();
    }
  });
});
