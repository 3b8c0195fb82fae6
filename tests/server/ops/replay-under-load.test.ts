import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.ts';
import { catalogueProjection } from '../../../server/catalogue/projection.ts';
import { projections } from '../../../server/domains.ts';
import type { Projection } from '../../../server/events/projection.ts';
import { replay } from '../../../server/events/replay.ts';
import { createInlineQueue } from '../../../server/queue/inline.ts';
import { createServices } from '../../../server/services.ts';
import { call, createTestApp, testConfig, type TestApp } from '../../helpers/app.ts';

// The runbook's scenario: a read table gains a column, its projection learns to fill it, the new
// code is deployed, and the projection is replayed while the api keeps serving reads and writes.
describe('replaying a changed projection under load', () => {
  let oldApp: TestApp;
  let newApp: FastifyInstance;
  let token: string;

  // The changed projection: the catalogue projection, now also filling cats.name_length.
  // It has no batch plan of its own, so replay applies it event by event.
  const changed: Projection = {
    ...catalogueProjection,
    applyBatch: undefined,
    async apply(trx, event) {
      await catalogueProjection.apply(trx, event);
      if (event.type === 'CatAdded' || event.type === 'CatUpdated') {
        await sql`update cats set name_length = length(name) where id = ${event.data.cat_id}`.execute(trx);
      }
    },
  };

  beforeAll(async () => {
    oldApp = await createTestApp({ worker: false });
    const { db } = oldApp.services.database;
    await db
      .insertInto('users')
      .values({ id: 9001, username: 'replayer', email: 'replayer@example.test', password_hash: 'x' })
      .execute();
    token = oldApp.app.issueToken({ id: 9001, username: 'replayer' });
  });
  afterAll(async () => {
    await newApp?.close();
    await oldApp.close();
  });

  const create = (app: FastifyInstance, i: number) =>
    call(
      app,
      'POST',
      '/api/cats',
      {
        name: `Load Cat ${i}`,
        bodega_name: `Load Deli ${i % 5}`,
        address: `${i % 5} Load St`,
        breed: 'Tabby',
      },
      token,
    );

  it('rebuilds with the new column while writes keep arriving, and loses none of them', async () => {
    for (let i = 0; i < 40; i++) expect((await create(oldApp.app, i)).status).toBe(201);

    // Deploy: the migration adds the column, the new code runs the changed projection.
    await sql`alter table cats add column name_length int`.execute(oldApp.services.database.db);
    const services = await createServices(testConfig(), {
      database: oldApp.services.database,
      queue: createInlineQueue(oldApp.services.database),
      migrate: false,
      projections: projections.map((p) => (p.name === 'catalogue' ? changed : p)),
    });
    newApp = await buildApp(services, { serveClient: false });
    await newApp.ready();

    const acknowledged: number[] = [];
    let stop = false;
    const traffic = (async () => {
      for (let i = 40; !stop && i < 1000; i++) {
        const res = await create(newApp, i);
        expect(res.status).toBe(201);
        acknowledged.push(res.body.cat.id);
        expect((await call(newApp, 'GET', `/api/cats/${res.body.cat.id}`)).status).toBe(200);
      }
    })();
    const result = await replay(services.database, [changed]);
    stop = true;
    await traffic;
    expect(acknowledged.length).toBeGreaterThan(0);

    for (const id of acknowledged) expect((await call(newApp, 'GET', `/api/cats/${id}`)).status).toBe(200);
    const { rows } = await sql<{ missing: number; total: number }>`
      select count(*) filter (where name_length is null)::int as missing, count(*)::int as total from cats`.execute(
      services.database.db,
    );
    expect(rows[0]).toEqual({ missing: 0, total: 40 + acknowledged.length });

    const verify = await replay(services.database, [changed], { verify: true });
    expect(verify.differences.every((d) => d.same)).toBe(true);
    expect(result.lockMs).toBeLessThan(5000);
    // The loop before the swap caught up to a small remainder: writers waited for a few events only.
    expect(result.lockedEvents).toBeLessThan(1000);
  });
});
