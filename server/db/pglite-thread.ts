// The embedded database's own thread. PGlite runs here, not on the main thread: its protocol loop
// can spin forever when the backend dies (electric-sql/pglite issue 1058), and that must freeze
// this thread only, where the supervisor on the main thread (pglite-host.ts) notices the missing
// heartbeat, terminates the thread and opens the data directory again in a new one.
//
// Messages in: query, listen, unlisten, dump, close, and two faults honoured only when the host asked for
// test hooks (freeze: busy-loop forever, as a stuck backend does; crash: end the thread at once).
// Messages out: ready/open-failed once, then a result, dump or error per request id, notify per NOTIFY,
// and fatal when the backend is broken beyond the current statement.
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Extension } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export type ThreadOptions = {
  dataDir: string | null;
  /** In memory only: start as a copy of this file, a dump of another database (see 'dump'). */
  copyOf: string | null;
  testHooks: boolean;
  /** Shared Int32Array[1] this thread increments every `beatMs` while its event loop runs. */
  beats: SharedArrayBuffer;
  beatMs: number;
};

export type SerializedError = { name: string; message: string; fields: Record<string, string | number> };

export type ToThread =
  | { type: 'query'; id: number; sql: string; params: unknown[] }
  | { type: 'listen'; id: number; channel: string }
  | { type: 'unlisten'; id: number; channel: string }
  | { type: 'dump'; id: number }
  | { type: 'close'; id: number }
  | { type: 'fault'; kind: 'freeze' | 'crash' };

export type FromThread =
  | { type: 'ready' }
  | { type: 'open-failed'; error: SerializedError }
  | { type: 'result'; id: number; rows: unknown[]; affectedRows: number }
  | { type: 'done'; id: number }
  | { type: 'dumped'; id: number; data: ArrayBuffer }
  | { type: 'error'; id: number; error: SerializedError }
  | { type: 'notify'; channel: string; payload: string }
  | { type: 'fatal'; error: SerializedError };

const INT8 = 20;
const NUMERIC = 1700;

/**
 * PGlite instantiates every extension's library at start, all at once. When one library's link step
 * runs while another's instantiation is still pending, a symbol of the pending one can be left
 * unresolved for good; the first call through it then crashes the database ("null function or
 * function signature mismatch") or spins it forever, depending on timing (most often on a busy
 * machine). With this option the libraries are only unpacked at start and each one is loaded,
 * synchronously and so one at a time, when first used.
 */
const loadLibrariesOnUse: Extension = {
  name: 'load-libraries-on-use',
  async setup(_pg, emscriptenOpts: { noWasmDecoding?: boolean }) {
    emscriptenOpts.noWasmDecoding = true;
    return { emscriptenOpts };
  },
};

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string | number> = {};
  // A DatabaseError's code, detail, constraint, table, column... are what callers branch on.
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

/** An error after which the backend cannot be trusted with another statement. */
function isFatal(error: unknown): boolean {
  if (error instanceof WebAssembly.RuntimeError) return true;
  const message = error instanceof Error ? error.message : String(error);
  return /Aborted\(|unreachable|null function|PGlite is closed/i.test(message);
}

async function main(port: NonNullable<typeof parentPort>, options: ThreadOptions): Promise<void> {
  const beats = new Int32Array(options.beats);
  setInterval(() => Atomics.add(beats, 0, 1), options.beatMs);
  const send = (message: FromThread) => port.postMessage(message);

  let pg: PGlite;
  try {
    const copy = options.copyOf ? new Blob([await readFile(options.copyOf)]) : undefined;
    pg = await PGlite.create({
      dataDir: options.dataDir ?? undefined,
      loadDataDir: copy,
      extensions: { cube, earthdistance, pg_trgm, loadLibrariesOnUse },
      parsers: { [INT8]: (v: string) => Number(v), [NUMERIC]: (v: string) => Number(v) },
    });
  } catch (error) {
    send({ type: 'open-failed', error: serializeError(error) });
    return;
  }

  const unlisteners = new Map<string, () => Promise<void>>();
  port.on('message', (message: ToThread) => {
    switch (message.type) {
      case 'query':
        pg.query(message.sql, message.params).then(
          (result) => {
            const answer: FromThread = {
              type: 'result',
              id: message.id,
              rows: result.rows,
              affectedRows: result.affectedRows ?? 0,
            };
            try {
              send(answer);
            } catch (error) {
              // A value that cannot cross threads must still answer the request.
              send({ type: 'error', id: message.id, error: serializeError(error) });
            }
          },
          (error: unknown) => {
            send({ type: 'error', id: message.id, error: serializeError(error) });
            if (isFatal(error)) send({ type: 'fatal', error: serializeError(error) });
          },
        );
        return;
      case 'listen':
        pg.listen(message.channel, (payload) =>
          send({ type: 'notify', channel: message.channel, payload }),
        ).then(
          (unlisten) => {
            unlisteners.set(message.channel, unlisten);
            send({ type: 'done', id: message.id });
          },
          (error: unknown) => send({ type: 'error', id: message.id, error: serializeError(error) }),
        );
        return;
      case 'unlisten': {
        const unlisten = unlisteners.get(message.channel);
        unlisteners.delete(message.channel);
        (unlisten ? unlisten() : Promise.resolve()).then(
          () => send({ type: 'done', id: message.id }),
          (error: unknown) => send({ type: 'error', id: message.id, error: serializeError(error) }),
        );
        return;
      }
      case 'dump':
        pg.dumpDataDir('none')
          .then((file) => file.arrayBuffer())
          .then(
            (data) => port.postMessage({ type: 'dumped', id: message.id, data } satisfies FromThread, [data]),
            (error: unknown) => send({ type: 'error', id: message.id, error: serializeError(error) }),
          );
        return;
      case 'close':
        pg.close().then(
          () => send({ type: 'done', id: message.id }),
          (error: unknown) => send({ type: 'error', id: message.id, error: serializeError(error) }),
        );
        return;
      case 'fault':
        if (!options.testHooks) return;
        if (message.kind === 'crash') process.exit(1);
        // A backend stuck in its protocol loop: this thread never returns to its event loop.
        for (;;) {
          // spin
        }
    }
  });
  send({ type: 'ready' });
}

if (parentPort) void main(parentPort, workerData as ThreadOptions);
