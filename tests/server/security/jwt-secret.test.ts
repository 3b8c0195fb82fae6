// No install signs tokens with a secret anyone can read: without JWT_SECRET a development install
// makes a random one and keeps it beside its data; tests keep theirs in memory.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.ts';
import { call, createTestApp, type TestApp } from '../../helpers/app.ts';

const PUBLISHED = 'bodega-cats-development-secret-change-me';

/** An HS256 token as anyone holding `secret` could make it. */
function forge(secret: string, claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const body = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ iat: Math.floor(Date.now() / 1000), ...claims })}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

describe('the token-signing secret without JWT_SECRET', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-secret-'));
    dirs.push(dir);
    return dir;
  };
  let t: TestApp | null = null;
  afterAll(async () => {
    await t?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('makes a random secret on first start, keeps it owner-only beside the data, and reuses it', () => {
    const dataDir = path.join(scratch(), 'data');
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.env).toBe('development');
    expect(first.jwtSecret).toMatch(/^[0-9a-f]{64}$/);
    const file = path.join(dataDir, 'jwt-secret');
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(first.jwtSecret);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first.jwtSecret);
    // Another install has its own.
    expect(loadConfig({ DATA_DIR: path.join(scratch(), 'data') }).jwtSecret).not.toBe(first.jwtSecret);
  });

  it('tightens a secret file whose permissions were widened, and refuses an unusable one', () => {
    const dataDir = scratch();
    const { jwtSecret } = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'jwt-secret');
    fs.chmodSync(file, 0o644);
    expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(jwtSecret);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    fs.writeFileSync(file, 'short\n');
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(/jwt-secret holds no usable secret/);
  });

  it('keeps a random secret in memory in tests, writing nothing', () => {
    const dataDir = scratch();
    const a = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }).jwtSecret;
    const b = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }).jwtSecret;
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('refuses the published development secret in every environment', () => {
    for (const NODE_ENV of ['development', 'test', 'production'])
      expect(() => loadConfig({ NODE_ENV, JWT_SECRET: PUBLISHED, DATA_DIR: scratch() }), NODE_ENV).toThrow(
        /JWT_SECRET is a published secret/,
      );
    expect(JSON.stringify(loadConfig({ DATA_DIR: scratch() }))).not.toContain(PUBLISHED);
  });

  it('rejects tokens signed with the published secret on an install without JWT_SECRET', async () => {
    const { jwtSecret } = loadConfig({ DATA_DIR: scratch() });
    t = await createTestApp({ worker: false, config: { jwtSecret } });
    const registered = await call(t.app, 'POST', '/api/auth/register', {
      username: 'rightful',
      email: 'rightful@example.test',
      password: 'correct-horse',
    });
    expect(registered.status).toBe(201);
    const id = registered.body.user.id;
    const forged = forge(PUBLISHED, { sub: String(id), username: 'rightful' });
    const res = await call(t.app, 'GET', '/api/auth/profile', undefined, forged);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
    // The install's own secret is what signs and verifies.
    expect(
      (
        await call(
          t.app,
          'GET',
          '/api/auth/profile',
          undefined,
          forge(jwtSecret, { sub: String(id), username: 'rightful' }),
        )
      ).status,
    ).toBe(200);
    expect(
      (await call(t.app, 'GET', '/api/auth/profile', undefined, registered.body.access_token)).status,
    ).toBe(200);
  });
});
