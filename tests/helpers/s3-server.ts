// A private S3-compatible server (s3rver, in a process of its own: s3rver-main.ts) on a free
// 127.0.0.1 port, keeping its objects in a temporary directory, with one bucket made. stop() kills
// it (open connections cut, as a crashed store would) and start() brings it up again on the same
// port with the same objects, so a test can see what the app does while its bucket is unreachable.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export type S3ServerUnderTest = {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  bucket: string;
  port: number;
  /** The settings that point the app at this server (PHOTO_STORAGE=s3 and the S3_* variables). */
  env: Record<string, string>;
  /** Where the server keeps its objects (for looking at what it holds). */
  directory: string;
  /** Takes the server down, cutting open connections; a no-op when it is down. */
  stop(): Promise<void>;
  /** Brings it up again on the same port and objects; a no-op when it is up. */
  start(): Promise<void>;
  /** Freezes it (SIGSTOP): connections open but nothing is answered, as a store that hangs. */
  pause(): void;
  /** Lets a frozen server go on (SIGCONT). */
  resume(): void;
  /** Stops it and removes its objects. */
  close(): Promise<void>;
};

/** s3rver's fixed account, which it checks signatures with. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const MAIN = path.join(import.meta.dirname, 's3rver-main.ts');

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

export async function startS3Server(options: { bucket?: string } = {}): Promise<S3ServerUnderTest> {
  const bucket = options.bucket ?? 'bodega-photos';
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'bodega-s3rver-'));
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  let running: ChildProcess | null = null;

  async function start(): Promise<void> {
    if (running) return;
    const child = spawn(
      process.execPath,
      ['--openssl-legacy-provider', '--import', 'tsx', MAIN, String(port), directory, bucket],
      // The channel tells it when this process is gone, so it never outlives the tests.
      { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] },
    );
    let output = '';
    child.stderr!.on('data', (d) => (output += d));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error('the S3 server did not start within 20 s')), 20_000);
      const onExit = (code: number | null) => fail(new Error(`the S3 server exited (${code})`));
      const fail = (error: Error) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`${error.message}: ${output.slice(-1000)}`));
      };
      child.once('message', () => {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve();
      });
      child.once('exit', onExit);
    });
    running = child;
  }

  async function stop(): Promise<void> {
    const child = running;
    if (!child) return;
    running = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  await start();
  return {
    endpoint,
    bucket,
    port,
    directory,
    env: {
      PHOTO_STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    },
    stop,
    start,
    pause: () => void running?.kill('SIGSTOP'),
    resume: () => void running?.kill('SIGCONT'),
    async close() {
      await stop();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
