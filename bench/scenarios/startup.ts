// Embedded-mode start-up: time from spawning `main.ts all` with no DATABASE_URL/REDIS_URL to
// its first answer on /api/health, on a fresh data directory (migrations included) and on an
// existing one, against a bare Fastify process started the same way (the runtime's own floor).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { row } from '../lib.ts';
import type { Scenario } from '../types.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function timeToHealthy(args: string[], env: Record<string, string>, port: number): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn', SEED_ON_EMPTY: 'false' },
    stdio: 'ignore',
  });
  try {
    const deadline = started + 120_000;
    while (performance.now() < deadline) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('did not become healthy within 120 s');
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const BARE = `
import Fastify from 'fastify';
const app = Fastify();
app.get('/api/health', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
`;

export const scenario: Scenario = {
  name: 'startup',
  async run({ quick }) {
    const runs = quick ? 1 : 3;
    const bareFile = path.resolve('bench/.bare-server.ts');
    fs.writeFileSync(bareFile, BARE);
    const cold: number[] = [];
    const warm: number[] = [];
    const bare: number[] = [];
    try {
      for (let i = 0; i < runs; i++) {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-startup-'));
        const env = {
          DATA_DIR: path.join(dir, 'data'),
          UPLOAD_DIR: path.join(dir, 'uploads'),
          DATABASE_URL: '',
          REDIS_URL: '',
        };
        cold.push(await timeToHealthy(['main.ts', 'all'], env, await freePort()));
        warm.push(await timeToHealthy(['main.ts', 'all'], env, await freePort()));
        bare.push(await timeToHealthy([bareFile], {}, await freePort()));
        fs.rmSync(dir, { recursive: true, force: true });
      }
    } finally {
      fs.rmSync(bareFile, { force: true });
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return [
      row(
        'startup',
        'embedded first start (fresh data dir)',
        'ms',
        median(cold),
        median(bare),
        'bare Fastify start',
      ),
      row(
        'startup',
        'embedded restart (existing data dir)',
        'ms',
        median(warm),
        median(bare),
        'bare Fastify start',
      ),
    ];
  },
};
