import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeEmbedded } from '../../helpers/embedded-only.ts';
import { openDatabase } from '../../../server/db/database.ts';
import {
  DataDirectoryLockedError,
  LOCK_FILE,
  lockDataDirectory,
  processIdentity,
} from '../../../server/db/data-lock.ts';

// One embedded data directory, one process: the lock on `<dataDir>/.lock`, its refusal of a second
// process, its release, and the takeover of a lock whose process is gone.
const dirs: string[] = [];
const children: ChildProcess[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-lock-'));
  dirs.push(dir);
  return dir;
}

/** Runs tests/fixtures/hold-data-dir.ts on `dir` and resolves once it has the database open. */
async function holdInChild(dir: string, mode: 'wait' | 'exit' = 'wait'): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/hold-data-dir.ts', dir, mode], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child did not open ${dir}: ${output}`)), 90_000);
    child.stdout!.on('data', (d) => {
      output += d;
      if (!output.includes('open')) return;
      clearTimeout(timer);
      resolve();
    });
    child.stderr!.on('data', (d) => (output += d));
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (output.includes('open')) resolve();
      else reject(new Error(`child exited ${code}: ${output}`));
    });
  });
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

function readLock(dir: string) {
  return JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8'));
}

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited(child);
  }
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describeEmbedded('embedded data directory lock', () => {
  it('refuses a second process while one has it open, and lets a dead one go', async () => {
    const dir = tempDir();
    const holder = await holdInChild(dir);
    expect(readLock(dir).pid).toBe(holder.pid);

    const second = openDatabase({ url: null, dataDir: dir });
    await expect(second).rejects.toBeInstanceOf(DataDirectoryLockedError);
    await expect(second).rejects.toThrow(
      new RegExp(`Another Bodega Cats process \\(pid ${holder.pid}\\b.*is using .*npm run replay`),
    );

    // Killed outright, the holder cannot release its lock: the file stays, naming a dead pid.
    holder.kill('SIGKILL');
    await exited(holder);
    expect(readLock(dir).pid).toBe(holder.pid);

    const database = await openDatabase({ url: null, dataDir: dir });
    try {
      expect(readLock(dir).pid).toBe(process.pid);
      await database.ping();
    } finally {
      await database.close();
    }
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('is released when the process exits without closing', async () => {
    const dir = tempDir();
    const child = await holdInChild(dir, 'exit');
    await exited(child);
    expect(child.exitCode).toBe(0);
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses a second open within one process and takes the lock again after close', () => {
    const dir = tempDir();
    const lock = lockDataDirectory(dir);
    expect(() => lockDataDirectory(dir)).toThrow(DataDirectoryLockedError);
    lock.release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    lockDataDirectory(dir).release();
  });

  it('takes over a lock whose pid now belongs to another process, or to a predecessor of its own', () => {
    const write = (dir: string, holder: object) =>
      fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(holder));

    // The parent process is alive, but its identity is not the one recorded: the pid was reused.
    const reused = tempDir();
    write(reused, {
      pid: process.ppid,
      startedAt: '2020-01-01T00:00:00.000Z',
      command: 'npm start',
      identity: 'another-boot:1',
    });
    if (processIdentity(process.ppid)) lockDataDirectory(reused).release();

    // Same live pid, no identity to compare: it counts as the holder.
    const live = tempDir();
    write(live, { pid: process.ppid, startedAt: '2020-01-01T00:00:00.000Z', command: 'npm start' });
    expect(() => lockDataDirectory(live)).toThrow(/pid \d+, npm start/);

    // This process's own pid, from a lock it does not hold: a container's pid 1 after a restart.
    const own = tempDir();
    write(own, { pid: process.pid, startedAt: '2020-01-01T00:00:00.000Z', command: 'npm start' });
    lockDataDirectory(own).release();

    // An empty lock file (a crash between create and write), old enough not to be in progress.
    const torn = tempDir();
    fs.writeFileSync(path.join(torn, LOCK_FILE), '');
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(torn, LOCK_FILE), old, old);
    lockDataDirectory(torn).release();
  });
});
