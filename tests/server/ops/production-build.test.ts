import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, SERVER_DIST, SERVER_ENTRIES } from '../../../scripts/build-server.ts';
import { startAppProcess, type AppProcess } from '../../faults/instances.ts';
import { openDatabase } from '../../../server/db/database.ts';
import { nextId } from '../../../server/events/store.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/storage.ts';

// Production runs the compiled bundles in dist/ (built by `npm run build`) on plain Node: these
// start them the way the Dockerfile and `npm run api:prod` do.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-prod-'));
const production = {
  NODE_ENV: 'production',
  JWT_SECRET: randomBytes(32).toString('hex'),
  DATA_KEY: randomBytes(32).toString('hex'),
  UPLOAD_DIR: path.join(root, 'uploads'),
  LOG_LEVEL: 'warn',
};
const compiled = (name: string) => [path.join(SERVER_DIST, `${name}.js`)];
const running: AppProcess[] = [];

async function start(role: 'api' | 'all', env: Record<string, string>): Promise<AppProcess> {
  const app = await startAppProcess(role, { ...production, ...env }, compiled('main'));
  running.push(app);
  return app;
}

function runCompiled(
  name: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number; output: string; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...compiled(name), ...args],
      { env: { ...process.env, ...production, ...env }, timeout: 60_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, output: `${stdout}${stderr}`, stdout });
      },
    );
  });
}

beforeAll(async () => {
  // The same step as `npm run build`'s last one, again: a checkout that was never built (a plain
  // `npm test`), or built before its sources changed, tests bundles of the sources it has.
  await buildServer();
});

afterAll(async () => {
  await Promise.all(running.map((app) => app.kill('SIGKILL')));
  fs.rmSync(root, { recursive: true, force: true });
});

describe('the compiled production entry points', () => {
  it('import no project source files (the runtime image has only dist/ and packages)', () => {
    for (const name of Object.keys(SERVER_ENTRIES)) {
      const source = fs.readFileSync(path.join(SERVER_DIST, `${name}.js`), 'utf8');
      expect(source, name).not.toMatch(/^import[^;]*from ["']\.{1,2}\//m);
    }
  });

  it('include every operator command `npm run` runs from scripts/ (production has no tsx)', () => {
    const { scripts } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
      scripts: Record<string, string>;
    };
    // Build and development steps, not operator commands.
    const buildSteps = new Set(['scripts/prerender.ts', 'scripts/build-server.ts', 'scripts/screenshots.ts']);
    const operated = Object.values(scripts)
      .map((command) => /^tsx (scripts\/[\w-]+\.ts)$/.exec(command)?.[1])
      .filter((source): source is string => source !== undefined && !buildSteps.has(source));
    expect(operated).toEqual(expect.arrayContaining(['scripts/role.ts', 'scripts/account.ts']));
    expect(Object.values(SERVER_ENTRIES)).toEqual(expect.arrayContaining(operated));
  });

  it('serve /api/health and /api/ready in embedded mode, storage thread included', async () => {
    const app = await start('all', {
      DATA_DIR: path.join(root, 'data'),
      DATABASE_URL: '',
      REDIS_URL: '',
      SEED_ON_EMPTY: 'false',
    });
    expect((await fetch(`${app.baseUrl}/api/health`)).status).toBe(200);
    expect((await fetch(`${app.baseUrl}/api/ready`)).status).toBe(200);
    // Every query goes through PGlite's thread, started from dist/pglite-thread.js.
    const bodegas = await fetch(`${app.baseUrl}/api/search/bodegas?per_page=1`);
    expect(bodegas.status).toBe(200);
    expect((await bodegas.json()).pagination.total).toBe(0);
    await app.kill('SIGTERM');
    expect(app.child.exitCode).toBe(0);
  });

  describe.runIf(process.env.TEST_DATABASE_URL)('with Postgres and Redis', () => {
    let database: TestDatabase;
    let services: Record<string, string>;
    beforeAll(async () => {
      database = await createTestDatabase();
      services = { DATABASE_URL: database.url!, REDIS_URL: process.env.TEST_REDIS_URL ?? '' };
    });
    afterAll(async () => database?.drop());

    it('migrate finds the database up to date, and the api answers', async () => {
      const migrate = await runCompiled('migrate', services);
      expect(migrate.output).toContain('Database is up to date.');
      expect(migrate.code).toBe(0);
      const app = await start('api', services);
      expect((await fetch(`${app.baseUrl}/api/ready`)).status).toBe(200);
      expect((await fetch(`${app.baseUrl}/api/search/cats?per_page=1`)).status).toBe(200);
      await app.kill('SIGTERM');
    });

    it('role and account work on plain Node', async () => {
      const db = await openDatabase({ url: database.url!, poolSize: 1 });
      try {
        const id = await nextId(db.db, 'user_ids');
        const username = `operated${id}`;
        await db.db
          .insertInto('users')
          .values({ id, username, email: `${username}@example.test`, password_hash: 'not-a-usable-hash' })
          .execute();
        const role = await runCompiled('role', services, [username, 'moderator']);
        expect(role.output).toContain(`${username} is now a moderator.`);
        expect(role.code).toBe(0);
        const exported = await runCompiled('account', services, ['export', username]);
        expect(exported.code, exported.output).toBe(0);
        expect(JSON.parse(exported.stdout).account).toMatchObject({ username, role: 'moderator' });
        const deleted = await runCompiled('account', services, ['delete', username]);
        expect(deleted.code, deleted.output).toBe(0);
        expect(await db.db.selectFrom('users').select('id').where('id', '=', id).execute()).toEqual([]);
      } finally {
        await db.close();
      }
    });
  });
});
