import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db/database.ts';
import { projections } from '../../server/domains.ts';
import { replay } from '../../server/events/replay.ts';
import {
  json,
  register,
  startAppProcess,
  startPostgres,
  waitFor,
  type AppProcess,
  type PostgresInstance,
} from './instances.ts';

describe('the api killed with SIGKILL during 200 concurrent writes', () => {
  let pg: PostgresInstance;
  let api: AppProcess;
  beforeAll(async () => {
    pg = await startPostgres();
    api = await startAppProcess('all', { DATABASE_URL: pg.url, REDIS_URL: '' });
  });
  afterAll(async () => {
    await api?.kill();
    await pg?.destroy();
  });

  it('keeps every acknowledged write, half-applies none, and replay --verify is clean', async () => {
    const { token } = await register(api.baseUrl, 'crashtester');
    const acknowledged: { id: number; name: string }[] = [];
    let answered = 0;
    const writes = Array.from({ length: 200 }, async (_, i) => {
      const name = `Crash Cat ${i}`;
      try {
        const res = await fetch(`${api.baseUrl}/api/cats`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({
            name,
            bodega_name: `Crash Deli ${i % 13}`,
            address: `${i % 13} Crash Ave`,
            latitude: 40.7,
            longitude: -73.9,
          }),
        });
        answered++;
        if (res.status === 201) acknowledged.push({ id: (await json(res)).cat.id, name });
      } catch {
        // the connection died with the process: this write was never acknowledged
      }
    });
    await waitFor(async () => answered >= 30, 60_000, 'some writes to be answered');
    await api.kill('SIGKILL');
    await Promise.all(writes);
    expect(acknowledged.length).toBeGreaterThan(0);

    api = await startAppProcess('all', { DATABASE_URL: pg.url, REDIS_URL: '' });
    for (const { id, name } of acknowledged) {
      const res = await fetch(`${api.baseUrl}/api/cats/${id}`);
      expect(res.status).toBe(200);
      expect((await json(res)).cat.name).toBe(name);
    }

    const database = await openDatabase({ url: pg.url, poolSize: 2 });
    try {
      const { db } = database;
      const orphans = await sql<{
        n: number;
      }>`select count(*)::int as n from cats c left join bodegas b on b.id = c.bodega_id where b.id is null`.execute(
        db,
      );
      expect(orphans.rows[0]!.n).toBe(0);
      const counts = await sql<{ n: number }>`
        select count(*)::int as n from bodegas b
        where b.cat_count <> (select count(*) from cats c where c.bodega_id = b.id)`.execute(db);
      expect(counts.rows[0]!.n).toBe(0);
      const streams = await sql<{ n: number }>`
        select count(*)::int as n from streams s
        where s.version <> (select max(stream_version) from events e where e.stream_id = s.stream_id)`.execute(
        db,
      );
      expect(streams.rows[0]!.n).toBe(0);
      const catEvents = await sql<{
        n: number;
      }>`select count(*)::int as n from events where type = 'CatAdded'`.execute(db);
      const cats = await sql<{ n: number }>`select count(*)::int as n from cats`.execute(db);
      expect(cats.rows[0]!.n).toBe(catEvents.rows[0]!.n);
      const verify = await replay(database, projections, { verify: true });
      expect(verify.differences.filter((d) => !d.same)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});

describe('Postgres stopping for a while', () => {
  let pg: PostgresInstance;
  let api: AppProcess;
  beforeAll(async () => {
    pg = await startPostgres();
    api = await startAppProcess('all', { DATABASE_URL: pg.url, REDIS_URL: '' });
  });
  afterAll(async () => {
    await api?.kill();
    await pg?.destroy();
  });

  it('answers 503 quickly while it is down and recovers by itself when it returns', async () => {
    const { token } = await register(api.baseUrl, 'outagetester');
    const created = await fetch(`${api.baseUrl}/api/cats`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Outage Cat', bodega_name: 'Outage Deli', address: '1 Outage St' }),
    });
    expect(created.status).toBe(201);
    const id = (await json(created)).cat.id;

    await pg.stop('fast');
    for (const [method, path] of [
      ['GET', `/api/cats/${id}`],
      ['GET', '/api/search/cats?q=outage'],
      ['GET', '/api/ready'],
    ] as const) {
      const started = Date.now();
      const res = await fetch(`${api.baseUrl}${path}`, { method, signal: AbortSignal.timeout(15_000) });
      expect(res.status, `${method} ${path}`).toBe(503);
      expect(Date.now() - started).toBeLessThan(10_000);
      const body = await json(res);
      expect(body.code).toBe('unavailable');
    }
    const write = await fetch(`${api.baseUrl}/api/cats`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Lost Cat', bodega_name: 'Outage Deli', address: '1 Outage St' }),
    });
    expect(write.status).toBe(503);

    await pg.start();
    await waitFor(
      async () => (await fetch(`${api.baseUrl}/api/cats/${id}`)).status === 200,
      30_000,
      'the api to recover',
    );
    expect((await fetch(`${api.baseUrl}/api/ready`)).status).toBe(200);
    const again = await fetch(`${api.baseUrl}/api/cats`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Back Cat', bodega_name: 'Outage Deli', address: '1 Outage St' }),
    });
    expect(again.status).toBe(201);
  });
});
