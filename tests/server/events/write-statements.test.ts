// How many statements a write sends to the database: each is a round trip, so a change that adds
// one to a frequent write is a cost every request pays. Counted through a Kysely plugin on the
// app's own database handle, only for the request being measured (an AsyncLocalStorage context;
// the broadcaster's reads are not the request's), without the NOTIFY sent after the commit (sent
// once for writes that commit together, so it belongs to no one request). BEGIN and COMMIT are not
// statements the plugin sees: a write's round trips are its count plus those two.
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../server/app.ts';
import { createLogger, createServices, type Services } from '../../../server/services.ts';
import { testConfig } from '../../helpers/app.ts';
import { createTestDatabase, createTestQueue, type TestDatabase } from '../../helpers/storage.ts';
import { appendBodega, appendCat } from '../../helpers/catalogue-events.ts';
import { multipartForm } from '../../helpers/multipart-form.ts';
import { imageOf } from '../../fixtures/images.ts';
import { person } from '../../helpers/world.ts';

const counting = new AsyncLocalStorage<string[]>();

function textOf(node: RootOperationNode): string {
  return node.kind === 'RawNode' ? node.sqlFragments.join('?') : node.kind;
}

const countStatements: KyselyPlugin = {
  transformQuery({ node }) {
    counting.getStore()?.push(textOf(node));
    return node;
  },
  transformResult: async ({ result }) => result,
};

let testDb: TestDatabase;
let services: Services;
let app: FastifyInstance;
let uploadDir: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  uploadDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-statements-'));
  const config = testConfig({ uploadDir, logLevel: 'silent' });
  const database = { ...testDb.database, db: testDb.database.db.withPlugin(countStatements) };
  services = await createServices(config, {
    database,
    queue: createTestQueue(testDb.database).queue,
    migrate: false,
    logger: createLogger(config),
  });
  app = await buildApp(services, { serveClient: false });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await services.queue.close();
  await testDb.drop();
  await fs.rm(uploadDir, { recursive: true, force: true });
});

const someone = (name: string) => person({ services, app }, name);

async function cat(): Promise<number> {
  return appendCat(services, await appendBodega(services));
}

/** The request's statements but the after-commit NOTIFY, and its answer's status. */
async function measure(send: () => Promise<{ statusCode: number }>) {
  const statements: string[] = [];
  // inject sends its request when it is awaited: inside the context.
  const res = await counting.run(statements, async () => await send());
  return { status: res.statusCode, statements: statements.filter((s) => !s.includes('pg_notify(')) };
}

function postReview(token: string, catId: number, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url: '/api/reviews',
    payload: { cat_id: catId, rating: 4, comment: 'Sat on the bread' },
    headers: { authorization: `Bearer ${token}`, ...headers },
  });
}

describe('statements per write', () => {
  // Every request: the signed-in caller's token version (see the auth plugin), before any write.
  it('posts a review in 5 statements (7 round trips with BEGIN and COMMIT) once the author has a key', async () => {
    const author = await someone('reviewer');
    // The first write that seals the author's text makes their data key: one insert more.
    const firstCat = await cat();
    const first = await measure(() => postReview(author.token, firstCat));
    expect(first.status).toBe(201);
    const catId = await cat();
    const { status, statements } = await measure(() => postReview(author.token, catId));
    expect(status).toBe(201);
    // The token, then the writer gate with the author's account hold and the review's locks in one
    // statement, the checks with the new id in one, the append, the projection's insert.
    expect(statements).toHaveLength(5);
    expect(first.statements).toHaveLength(6);
  });

  it('posts a review with an Idempotency-Key in 7 statements, and answers its repeat in 3', async () => {
    const author = await someone('keyed');
    // The first keyed write of a process also prunes expired keys (at most every ten minutes).
    const firstCat = await cat();
    await measure(() => postReview(author.token, firstCat, { 'idempotency-key': `warm-${firstCat}` }));
    const catId = await cat();
    const key = { 'idempotency-key': `statements-${catId}` };
    const fresh = await measure(() => postReview(author.token, catId, key));
    expect(fresh.status).toBe(201);
    // The review's locks join the first statement, before the key's row: one fewer than the 8 it
    // took when they were a statement of their own after it.
    expect(fresh.statements).toHaveLength(7);
    const repeat = await measure(() => postReview(author.token, catId, key));
    expect(repeat.status).toBe(201);
    expect(repeat.statements).toHaveLength(3);
  });

  it('saves a cat in 6 statements', async () => {
    const reader = await someone('saver');
    const catId = await cat();
    const { status, statements } = await measure(() =>
      app.inject({
        method: 'POST',
        url: `/api/cats/${catId}/save`,
        headers: { authorization: `Bearer ${reader.token}` },
      }),
    );
    expect(status).toBe(200);
    // The save's locks join the first statement (they took two of their own: 8 statements).
    expect(statements).toHaveLength(6);
  });

  it('takes a first photo upload in 11 statements', async () => {
    const uploader = await someone('uploader');
    const catId = await cat();
    const form = multipartForm([
      { name: 'photo', data: await imageOf('jpeg'), filename: 'cat.jpg', contentType: 'image/jpeg' },
    ]);
    const { status, statements } = await measure(() =>
      app.inject({
        method: 'POST',
        url: `/api/photos/cats/${catId}/photos`,
        payload: form.payload,
        headers: { ...form.headers, authorization: `Bearer ${uploader.token}` },
      }),
    );
    expect(status).toBe(201);
    // The token, the target's look before the file is read, the first statement (gate, account,
    // photo lock), the target's row, the id, the uploader's new data key, the append, the photos
    // projection's three and the photo read back.
    expect(statements).toHaveLength(11);
  });
});
