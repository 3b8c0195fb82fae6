// A hang guard for test processes. Vitest's timeouts are timers on the test's own thread, so code
// that never yields (a query spinning inside embedded Postgres's WebAssembly, say) would hold its
// fork, and the whole run, forever. A second thread watches a heartbeat the main thread writes
// every second; when the main thread has been silent for WATCHDOG_SECONDS it names the test that
// was running and kills the process, so the run carries on without it. With WATCHDOG_REPORT_DIR set,
// it also leaves a file there naming the hung test file, for CI's summary (and its one retry).
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { beforeEach, expect } from 'vitest';

const LIMIT_SECONDS = Number(process.env.WATCHDOG_SECONDS ?? 150);
const NAME_BYTES = 1024;

type Watchdog = { beat: Int32Array; name: Uint8Array };
const key = Symbol.for('bodega.test-watchdog');
const registry = globalThis as typeof globalThis & { [key]?: Watchdog };

function start(): Watchdog {
  const beat = new Int32Array(new SharedArrayBuffer(4));
  const name = new Uint8Array(new SharedArrayBuffer(NAME_BYTES));
  const now = () => Math.floor(Date.now() / 1000);
  Atomics.store(beat, 0, now());
  setInterval(() => Atomics.store(beat, 0, now()), 1000).unref();
  const worker = new Worker(
    `
    const { workerData } = require('node:worker_threads');
    const fs = require('node:fs');
    const path = require('node:path');
    const { beat, name, limit, reportDir } = workerData;
    const sleeper = new Int32Array(new SharedArrayBuffer(4));
    for (;;) {
      Atomics.wait(sleeper, 0, 0, 5000);
      const silent = Math.floor(Date.now() / 1000) - Atomics.load(beat, 0);
      if (silent < limit) continue;
      const end = name.indexOf(0);
      const [file = '', test = ''] = Buffer.from(name.subarray(0, end < 0 ? name.length : end))
        .toString()
        .split('\\t');
      fs.writeSync(2, '\\n[watchdog] pid ' + process.pid + ': the main thread has not run for ' +
        silent + ' s, in ' + file + ' > ' + (test || '(setup)') + '; killing the process\\n');
      if (reportDir) {
        fs.mkdirSync(reportDir, { recursive: true });
        fs.writeFileSync(path.join(reportDir, process.pid + '.json'), JSON.stringify({ file, test, silent }));
      }
      process.kill(process.pid, 'SIGKILL');
    }
    `,
    {
      eval: true,
      workerData: { beat, name, limit: LIMIT_SECONDS, reportDir: process.env.WATCHDOG_REPORT_DIR ?? '' },
    },
  );
  worker.unref();
  return { beat, name };
}

const watchdog = (registry[key] ??= start());

function label(file: string, test: string): void {
  watchdog.name.fill(0);
  watchdog.name.set(Buffer.from(`${file}\t${test}`).subarray(0, NAME_BYTES - 1));
}

label(path.relative(process.cwd(), expect.getState().testPath ?? ''), '');
beforeEach((context) =>
  label(
    context.task.file?.filepath ? path.relative(process.cwd(), context.task.file.filepath) : '',
    context.task.name,
  ),
);
