// The main thread's side of embedded storage: PGlite runs in a worker thread (pglite-thread.ts)
// under this supervisor. Queries and LISTEN/NOTIFY travel by message; the thread increments a shared
// heartbeat counter while its event loop runs. When the counter stops for `deadlineMs` (a backend
// spinning in its protocol loop, electric-sql/pglite issue 1058) or the thread dies, every pending
// and new query fails at once with EmbeddedStorageUnavailableError (a 503 at the HTTP layer), the
// thread is terminated (which stops even a spinning wasm loop), and a new thread opens the same data
// directory from disk. The process never needs restarting.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FromThread, SerializedError, ThreadOptions, ToThread } from './pglite-thread.ts';

/** Storage is restarting (or gone): the request may be retried shortly. Maps to 503 (code 08006). */
export class EmbeddedStorageUnavailableError extends Error {
  readonly code = '08006';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddedStorageUnavailableError';
  }
}

export type StorageLogger = {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export type EmbeddedStorageOptions = {
  /** The data directory (already locked by the caller), or null for an in-memory database. */
  dataDir: string | null;
  /**
   * In memory only: the database starts as a copy of this file, written from another one's dump()
   * (much faster than creating and migrating one: tests start each file's database this way).
   */
  copyOf?: string | null;
  /** How long the thread may go without a heartbeat before it is declared stuck (a statement runs
   * on the thread without returning to its event loop, so this must exceed the longest one). */
  deadlineMs?: number;
  /** How often the thread beats and the supervisor looks. */
  heartbeatMs?: number;
  /** Honour the test-only faults (freeze, crash). Always on under NODE_ENV=test. */
  testHooks?: boolean;
  logger?: StorageLogger;
};

export type QueryResultRows<R = unknown> = { rows: R[]; affectedRows: number };

/** One session's view of the storage: its queries fail once the thread it began on is replaced. */
export type StorageSession = {
  query<R>(sql: string, params: readonly unknown[]): Promise<QueryResultRows<R>>;
};

type State = 'starting' | 'ready' | 'down' | 'failed' | 'closed';

const START_TIMEOUT_MS = 120_000;
const MAX_RETRY_DELAY_MS = 30_000;

/**
 * The thread is started from a small ESM snippet. Compiled (dist/*.js, see scripts/build-server.ts)
 * it imports pglite-thread.js from beside the running bundle; from source it first registers tsx's
 * loader inside the thread (worker threads do not inherit a loader registered in code) and then
 * imports pglite-thread.ts.
 */
function bootstrapSource(): string {
  const fail = '.catch((error) => { console.error(error); process.exit(70); });';
  if (!import.meta.url.endsWith('.ts')) {
    const thread = new URL('./pglite-thread.js', import.meta.url).href;
    return `import(${JSON.stringify(thread)})${fail}`;
  }
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(
    require.resolve('tsx/package.json').replace(/package\.json$/, 'dist/esm/api/index.mjs'),
  ).href;
  const thread = new URL('./pglite-thread.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsxApi)})
    .then((tsx) => { tsx.register(); return import(${JSON.stringify(thread)}); })
    ${fail}`;
}

function revive(error: SerializedError): Error {
  const revived = new Error(error.message) as Error & Record<string, unknown>;
  revived.name = error.name;
  Object.assign(revived, error.fields);
  return revived;
}

type Pending = { resolve(value: unknown): void; reject(error: unknown): void };

export class EmbeddedStorage {
  private state: State = 'starting';
  private worker: Worker | null = null;
  private generation = 0;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly channels = new Map<string, Set<(payload: string) => void>>();
  private readonly beats = new Int32Array(new SharedArrayBuffer(4));
  private lastBeat = 0;
  private lastBeatAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private retries = 0;
  private readonly deadlineMs: number;
  private readonly heartbeatMs: number;
  private readonly testHooks: boolean;
  /** Times the storage thread was replaced after getting stuck or dying. */
  restarts = 0;

  private constructor(private readonly options: EmbeddedStorageOptions) {
    // An in-memory database cannot be reopened, so declaring it lost is only worth it when it is
    // clearly gone: its default deadline is far longer than the longest legitimate statement.
    this.deadlineMs = options.deadlineMs ?? (options.dataDir === null ? 60_000 : 10_000);
    this.heartbeatMs = options.heartbeatMs ?? Math.min(1000, Math.max(50, Math.floor(this.deadlineMs / 5)));
    this.testHooks = options.testHooks ?? process.env.NODE_ENV === 'test';
  }

  static async open(options: EmbeddedStorageOptions): Promise<EmbeddedStorage> {
    // A data directory holds a database of its own: starting it as a copy would have to overwrite
    // it, which is never what was meant.
    if (options.copyOf && options.dataDir) {
      throw new Error('copyOf starts an in-memory database only; it cannot be given with a data directory');
    }
    const storage = new EmbeddedStorage(options);
    try {
      await storage.start();
    } catch (error) {
      storage.state = 'closed';
      await storage.worker?.terminate();
      throw error;
    }
    storage.timer = setInterval(() => storage.check(), storage.heartbeatMs);
    storage.timer.unref();
    return storage;
  }

  get status(): State {
    return this.state;
  }

  /** Starts a thread on the data directory and resolves once PGlite is open in it. */
  private start(): Promise<void> {
    const generation = ++this.generation;
    this.state = 'starting';
    const workerData: ThreadOptions = {
      dataDir: this.options.dataDir,
      copyOf: this.options.copyOf ?? null,
      testHooks: this.testHooks,
      beats: this.beats.buffer as SharedArrayBuffer,
      beatMs: this.heartbeatMs,
    };
    const worker = new Worker(bootstrapSource(), { eval: true, execArgv: [], workerData });
    this.worker = worker;
    worker.unref();
    return new Promise<void>((resolve, reject) => {
      const timeout = setTimeout(() => {
        fail(new Error(`Embedded storage did not open within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      timeout.unref();
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timeout);
        reject(error);
      };
      worker.on('message', (message: FromThread) => {
        if (generation !== this.generation) return;
        if (message.type === 'ready') {
          if (settled) return;
          settled = true;
          clearTimeout(timeout);
          if (this.state === 'closed') return resolve();
          this.state = 'ready';
          this.lastBeat = Atomics.load(this.beats, 0);
          this.lastBeatAt = Date.now();
          resolve();
          return;
        }
        if (message.type === 'open-failed') return fail(revive(message.error));
        this.onMessage(generation, message);
      });
      worker.on('error', (error) => {
        if (!settled) return fail(error);
        this.lost(generation, 'crashed', error);
      });
      worker.on('exit', (code) => {
        const error = new Error(`the embedded storage thread exited (code ${code})`);
        if (!settled) return fail(error);
        this.lost(generation, `exited with code ${code}`, error);
      });
    });
  }

  private onMessage(generation: number, message: FromThread): void {
    switch (message.type) {
      case 'result':
        return this.settle(message.id, { rows: message.rows, affectedRows: message.affectedRows });
      case 'done':
        return this.settle(message.id, undefined);
      case 'dumped':
        return this.settle(message.id, new Uint8Array(message.data));
      case 'error': {
        const entry = this.take(message.id);
        entry?.reject(revive(message.error));
        return;
      }
      case 'notify':
        for (const listener of this.channels.get(message.channel) ?? []) listener(message.payload);
        return;
      case 'fatal':
        return this.lost(generation, 'reported a broken backend', revive(message.error));
    }
  }

  private take(id: number): Pending | undefined {
    const entry = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    return entry;
  }

  private settle(id: number, value: unknown): void {
    this.take(id)?.resolve(value);
  }

  /** The heartbeat: a thread whose event loop has not run for `deadlineMs` is stuck. */
  private check(): void {
    if (this.state !== 'ready') return;
    const beat = Atomics.load(this.beats, 0);
    const now = Date.now();
    if (beat !== this.lastBeat) {
      this.lastBeat = beat;
      this.lastBeatAt = now;
      return;
    }
    if (now - this.lastBeatAt >= this.deadlineMs) {
      this.lost(this.generation, `stopped answering for ${now - this.lastBeatAt} ms`, null);
    }
  }

  /** The thread of `generation` is stuck or dead: fail everything, then replace it. */
  private lost(generation: number, reason: string, error: unknown): void {
    if (generation !== this.generation || this.state === 'closed' || this.state === 'failed') return;
    if (this.state === 'down') return;
    this.state = 'down';
    const worker = this.worker;
    this.worker = null;
    this.failPending(new EmbeddedStorageUnavailableError(`Embedded storage ${reason}`, { cause: error }));
    this.options.logger?.error(
      { err: error, reason, dataDir: this.options.dataDir },
      'embedded storage thread lost; restarting it',
    );
    void (async () => {
      // The old thread must be gone before a new one opens the same files.
      await worker?.terminate().catch(() => {});
      if (this.state === 'closed') return;
      if (this.options.dataDir === null) {
        // Nothing on disk to reopen: an in-memory database is gone with its thread.
        this.state = 'failed';
        this.options.logger?.error({}, 'in-memory embedded storage lost; restart the process');
        return;
      }
      this.restarts++;
      await this.restart();
    })();
  }

  private async restart(): Promise<void> {
    try {
      await this.start();
    } catch (error) {
      if (this.state === 'closed') return;
      await this.worker?.terminate().catch(() => {});
      this.worker = null;
      this.state = 'down';
      const delay = Math.min(MAX_RETRY_DELAY_MS, 500 * 2 ** this.retries++);
      this.options.logger?.error({ err: error, retryInMs: delay }, 'embedded storage could not reopen');
      this.retryTimer = setTimeout(() => void this.restart(), delay);
      this.retryTimer.unref();
      return;
    }
    if (this.state !== 'ready') return;
    this.retries = 0;
    for (const channel of this.channels.keys()) {
      await this.request({ type: 'listen', id: 0, channel }).catch(() => {});
    }
    this.options.logger?.warn(
      { restarts: this.restarts, dataDir: this.options.dataDir },
      'embedded storage restarted from disk',
    );
    // Notifications sent while the thread was down are gone; wake every listener once.
    for (const listeners of this.channels.values()) for (const listener of listeners) listener('');
  }

  private failPending(error: Error): void {
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const entry of entries) entry.reject(error);
  }

  private unavailable(): EmbeddedStorageUnavailableError {
    if (this.state === 'closed') return new EmbeddedStorageUnavailableError('Embedded storage is closed');
    if (this.state === 'failed')
      return new EmbeddedStorageUnavailableError('Embedded storage was lost; restart the process');
    return new EmbeddedStorageUnavailableError('Embedded storage is restarting');
  }

  private request<T>(message: ToThread, generation = this.generation): Promise<T> {
    if (this.state !== 'ready' || generation !== this.generation || !this.worker)
      return Promise.reject(this.unavailable());
    const id = this.nextId++;
    const worker = this.worker;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      try {
        worker.postMessage({ ...message, id });
      } catch (error) {
        // A parameter that cannot be cloned (a function, say).
        this.take(id);
        reject(error);
        return;
      }
      worker.ref();
    });
  }

  query<R>(sql: string, params: readonly unknown[] = []): Promise<QueryResultRows<R>> {
    return this.request({ type: 'query', id: 0, sql, params: [...params] });
  }

  /** A session pinned to the current thread: after a restart its statements fail instead of
   * running outside the transaction they belonged to. */
  session(): StorageSession {
    const generation = this.generation;
    return {
      query: <R>(sql: string, params: readonly unknown[]) =>
        this.request<QueryResultRows<R>>({ type: 'query', id: 0, sql, params: [...params] }, generation),
    };
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    let listeners = this.channels.get(channel);
    if (!listeners) {
      listeners = new Set();
      this.channels.set(channel, listeners);
      try {
        await this.request({ type: 'listen', id: 0, channel });
      } catch (error) {
        this.channels.delete(channel);
        throw error;
      }
    }
    listeners.add(onNotify);
    return async () => {
      const current = this.channels.get(channel);
      if (!current?.delete(onNotify) || current.size > 0) return;
      this.channels.delete(channel);
      await this.request({ type: 'unlisten', id: 0, channel }).catch(() => {});
    };
  }

  /** The whole database as one uncompressed tar file, which `copyOf` can start another from. */
  dump(): Promise<Uint8Array> {
    return this.request({ type: 'dump', id: 0 });
  }

  /** Test-only: make the backend hang (busy-loop) or its thread die. Needs `testHooks`. */
  injectFault(kind: 'freeze' | 'crash'): void {
    if (!this.testHooks) throw new Error('Embedded storage faults need testHooks');
    this.worker?.postMessage({ type: 'fault', kind } satisfies ToThread);
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasReady = this.state === 'ready';
    if (this.timer) clearInterval(this.timer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (wasReady) {
      // A clean shutdown (checkpoint) before the thread goes; bounded, in case it is stuck.
      await Promise.race([
        this.request({ type: 'close', id: 0 }).catch(() => {}),
        new Promise((resolve) => setTimeout(resolve, this.deadlineMs).unref()),
      ]);
    }
    this.state = 'closed';
    this.failPending(this.unavailable());
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate().catch(() => {});
  }
}
