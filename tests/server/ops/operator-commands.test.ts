import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEmbedded } from '../../helpers/embedded-only.ts';
import { LOCK_FILE } from '../../../server/db/data-lock.ts';
import { CHANNEL_FILE, readOperatorChannel } from '../../../server/ops/local-operator.ts';
import { startAppProcess, type AppProcess } from '../../faults/instances.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';

// Operator commands against a running embedded app: `npm start` holds the data directory, and
// `npm run doctor`, `replay`, `migrate` and `seed` run in it through its local operator endpoint.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-ops-'));
const dataDir = path.join(root, 'data');
const env = {
  DATA_DIR: dataDir,
  UPLOAD_DIR: path.join(root, 'uploads'),
  DATABASE_URL: '',
  REDIS_URL: '',
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  SEED_ON_EMPTY: 'false',
};
let app: AppProcess;
let inProcess: TestApp | null = null;

/** Runs one of the operator scripts as an operator would, bounded in time. */
function runScript(
  script: string,
  args: string[] = [],
): Promise<{ code: number; output: string; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `scripts/${script}.ts`, ...args],
      { env: { ...process.env, ...env }, timeout: 120_000, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, output: `${stdout}${stderr}`, stdout, stderr });
      },
    );
  });
}

function post(command: string, headers: Record<string, string>, body: object = {}) {
  return fetch(`${app.baseUrl}/ops/${command}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
}

beforeAll(async () => {
  app = await startAppProcess('all', env);
  const deadline = Date.now() + 30_000;
  while (!readOperatorChannel(dataDir) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
});

afterAll(async () => {
  await app?.kill('SIGKILL');
  await inProcess?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describeEmbedded('operator commands against a running embedded app', () => {
  it('publishes its address and a token only the owner can read', () => {
    const channel = readOperatorChannel(dataDir);
    expect(channel?.pid).toBe(app.child.pid);
    expect(channel?.url).toBe(`http://127.0.0.1:${app.port}`);
    expect(channel?.token.length).toBeGreaterThanOrEqual(40);
    expect(fs.statSync(path.join(dataDir, CHANNEL_FILE)).mode & 0o777).toBe(0o600);
  });

  it('answers the operator endpoints only with that token', async () => {
    const none = await post('doctor', {});
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ code: 'unauthorized' });
    expect((await post('replay', { authorization: 'Bearer not-the-token' })).status).toBe(401);
    const token = readOperatorChannel(dataDir)!.token;
    const bad = await post('replay', { authorization: `Bearer ${token}` }, { projections: ['nope'] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'invalid_input', error: /Unknown projection: nope/ });
  });

  it('runs doctor, seed, migrate and replay in the app', async () => {
    const doctor = await runScript('doctor');
    expect(doctor.output).toMatch(new RegExp(`open in the running app \\(pid ${app.child.pid}\\)`));
    expect(doctor.output).toMatch(/ ok  +migrations +all \d+ applied/);
    expect(doctor.output).toContain('Everything looks healthy.');
    expect(doctor.code).toBe(0);

    const seed = await runScript('seed');
    expect(seed.output).toMatch(/Added \d+ bodegas and \d+ cats\./);
    expect(seed.code).toBe(0);
    const bodegas = await (await fetch(`${app.baseUrl}/api/search/bodegas?per_page=1`)).json();
    expect(bodegas.pagination.total).toBeGreaterThan(0);

    const migrate = await runScript('migrate');
    expect(migrate.output).toContain('Database is up to date.');
    expect(migrate.code).toBe(0);

    const rebuilt = await runScript('replay', ['catalogue']);
    expect(rebuilt.output).toMatch(/Replaying: catalogue/);
    expect(rebuilt.output).toMatch(/[\d,]+ events in [\d.]+s; writers held for \d+ ms during the swap/);
    expect(rebuilt.code).toBe(0);

    const verify = await runScript('replay', ['--verify']);
    expect(verify.output).toContain('Verify passed: the read tables match the event log.');
    expect(verify.code).toBe(0);
    // The app served throughout, on the same data.
    expect((await fetch(`${app.baseUrl}/api/ready`)).status).toBe(200);
  });

  it('deletes an account by username in the app', async () => {
    const username = `gone_${Date.now().toString(36)}`;
    const register = await fetch(`${app.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, email: `${username}@example.test`, password: 'tuna-sandwich' }),
    });
    expect(register.status).toBe(201);
    const { access_token: token } = (await register.json()) as { access_token: string };

    // The export comes from the app too; stdout holds the document alone.
    const exported = await runScript('account', ['export', username]);
    expect(exported.stderr).toMatch(new RegExp(`open in the running app \\(pid ${app.child.pid}\\)`));
    expect(exported.code).toBe(0);
    const doc = JSON.parse(exported.stdout) as { account: object; log: { events: { type: string }[] } };
    expect(doc.account).toMatchObject({ username, email: `${username}@example.test`, role: 'member' });
    expect(exported.stdout).not.toContain('password');

    const deleted = await runScript('account', ['delete', username]);
    expect(deleted.output).toContain(`Deleted ${username}: the account, its reviews, 0 photo(s)`);
    expect(deleted.code).toBe(0);
    const profile = await fetch(`${app.baseUrl}/api/auth/profile`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(profile.status).toBe(401);

    const again = await runScript('account', ['delete', username]);
    expect(again.output).toContain(`No user is called "${username}"`);
    expect(again.code).not.toBe(0);
    const gone = await runScript('account', ['export', username]);
    expect(gone.stderr).toContain(`No user is called "${username}"`);
    expect(gone.stdout).not.toContain('{');
    expect(gone.code).toBe(1);
    expect((await runScript('account', ['remove'])).code).toBe(2);
  });

  it('refuses to start a second app on the same data directory', async () => {
    const second = spawn(process.execPath, ['--import', 'tsx', 'main.ts', 'all'], {
      env: { ...process.env, ...env, PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    second.stdout.on('data', (d) => (output += d));
    second.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => second.kill('SIGKILL'), 60_000);
    const code = await new Promise((r) => second.once('exit', r));
    clearTimeout(timer);
    expect(code).toBe(1);
    expect(output).toContain(`Another Bodega Cats process (pid ${app.child.pid}`);
  });

  it('releases the directory on shutdown, and the scripts then open it themselves', async () => {
    await app.kill('SIGTERM');
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    expect(fs.existsSync(path.join(dataDir, CHANNEL_FILE))).toBe(false);
    const doctor = await runScript('doctor');
    expect(doctor.output).not.toContain('running app');
    expect(doctor.output).toContain(`embedded PGlite at ${dataDir}`);
    expect(doctor.code).toBe(0);
  });

  it('has no operator endpoints in an app started without a local operator token', async () => {
    inProcess = await createTestApp({ worker: false });
    const res = await inProcess.app.inject({ method: 'POST', url: '/ops/doctor', payload: {} });
    expect(res.statusCode).toBe(404);
  });
});
