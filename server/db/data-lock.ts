// One process per embedded data directory. PGlite has no cross-process locking of its own: two
// processes on one directory (`npm start` and `npm run replay`, say) each keep their own view of the
// files and corrupt them. So whoever opens the directory first creates `<dataDir>/.lock`
// exclusively (O_EXCL) with its pid, and everyone else fails fast with DataDirectoryLockedError
// until it is released on close or process exit. A lock left behind by a process that died without
// releasing it (kill -9, power loss) is taken over.
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = '.lock';

export type LockHolder = {
  pid: number;
  /** When the holder took the lock (ISO time). */
  startedAt: string;
  /** How the holder was started, for the message another process shows ("npm start"). */
  command: string;
  /** Boot and process start time of the holder where the OS tells them (Linux), so a pid reused
   * by an unrelated process after a crash or a container restart is not mistaken for the holder. */
  identity: string | null;
};

export class DataDirectoryLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    const where = path.relative(process.cwd(), dataDir) || '.';
    const shown = where.startsWith('..') ? dataDir : `./${where}`;
    super(
      `Another Bodega Cats process (pid ${holder.pid}, ${holder.command}, since ${holder.startedAt}) ` +
        `is using ${shown}. Two processes on one embedded data directory would corrupt it. Stop that ` +
        `process first (kill ${holder.pid}), or let it finish. While the app runs (npm start), ` +
        `\`npm run replay\`, \`migrate\`, \`seed\` and \`doctor\` are handed to it instead.`,
    );
    this.name = 'DataDirectoryLockedError';
  }
}

export type DataDirectoryLock = { path: string; holder: LockHolder; release(): void };

/** Lock files this process holds, so a second open within the process is refused too, and a lock
 * carrying this process's own pid that it does not hold is recognised as a predecessor's. */
const held = new Map<string, DataDirectoryLock>();

/** `<boot id>:<start time in clock ticks>` of a process, or null where /proc is not available. */
export function processIdentity(pid: number): string | null {
  try {
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime) counts from the end of the command name, which may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return `${boot}:${fields[19]}`;
  } catch {
    return null;
  }
}

function describeCommand(): string {
  const npmScript = process.env.npm_lifecycle_event;
  if (npmScript) return npmScript === 'start' ? 'npm start' : `npm run ${npmScript}`;
  const script = process.argv[1] ? path.relative(process.cwd(), process.argv[1]) : 'node';
  return [script, ...process.argv.slice(2)].join(' ').slice(0, 200);
}

function readHolder(file: string): LockHolder | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<LockHolder>;
    if (!Number.isInteger(parsed.pid) || (parsed.pid as number) <= 0) return null;
    return {
      pid: parsed.pid as number,
      startedAt: String(parsed.startedAt ?? 'unknown'),
      command: String(parsed.command ?? 'unknown command'),
      identity: typeof parsed.identity === 'string' ? parsed.identity : null,
    };
  } catch {
    return null;
  }
}

/** Is the process that wrote this lock still running? */
export function holderAlive(holder: LockHolder): boolean {
  if (holder.pid === process.pid) {
    // Our own pid but not a lock we hold: a predecessor with the same pid (pid 1 in a container).
    return [...held.values()].some((l) => l.holder.startedAt === holder.startedAt);
  }
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    // EPERM: it exists but belongs to another user; count it as alive.
  }
  if (holder.identity) {
    const now = processIdentity(holder.pid);
    if (now && now !== holder.identity) return false; // the pid was reused by another process
  }
  return true;
}

/**
 * Takes the lock on `dataDir` (created if missing) or throws DataDirectoryLockedError naming the
 * live process that holds it. A lock whose process is gone is taken over.
 */
export function lockDataDirectory(dataDir: string): DataDirectoryLock {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const mine = held.get(file);
  if (mine) throw new DataDirectoryLockedError(dir, mine.holder);
  const holder: LockHolder = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    command: describeCommand(),
    identity: processIdentity(process.pid),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o644);
      try {
        fs.writeSync(fd, JSON.stringify(holder));
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 40) throw error;
    }
    const current = readHolder(file);
    if (current && holderAlive(current)) throw new DataDirectoryLockedError(dir, current);
    if (!current) {
      // Unreadable: either being written this instant by a process that just created it, or torn
      // by a crash between create and write. Give a writer a moment before calling it stale.
      const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age < 2000) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
        continue;
      }
    }
    takeOverStale(file, current);
  }
  const lock: DataDirectoryLock = {
    path: file,
    holder,
    release() {
      if (held.get(file) !== lock) return;
      held.delete(file);
      // Only remove the file while it is still ours (never another process's lock).
      const current = readHolder(file);
      if (current?.pid === holder.pid && current.startedAt === holder.startedAt)
        fs.rmSync(file, { force: true });
    },
  };
  held.set(file, lock);
  return lock;
}

/**
 * Moves a dead holder's lock out of the way. The rename is atomic, so of two processes taking over
 * the same stale lock only one moves it; if what was moved turns out to be a fresh lock someone
 * else just created, it is put back and the next attempt sees that live holder.
 */
function takeOverStale(file: string, stale: LockHolder | null): void {
  const aside = `${file}.stale-${process.pid}-${Date.now()}`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // someone else moved it
    throw error;
  }
  const moved = readHolder(aside);
  const same = stale ? moved?.pid === stale.pid && moved?.startedAt === stale.startedAt : moved === null;
  if (!same) {
    try {
      fs.linkSync(aside, file);
    } catch {
      // A third process already created a lock; theirs stands.
    }
  }
  fs.rmSync(aside, { force: true });
}

// Normal exits (process.exit, end of the event loop) release every lock still held; a killed
// process leaves its lock behind, for the next one to find stale.
process.on('exit', () => {
  for (const lock of [...held.values()]) {
    try {
      lock.release();
    } catch {
      // exiting anyway
    }
  }
});
