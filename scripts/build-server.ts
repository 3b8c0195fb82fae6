// Third step of `npm run build`: compiles the server, the workers and the operator scripts into
// plain JavaScript in dist/, so production runs on Node alone, without a TypeScript loader
// (`npm run start:prod`, `npm run api:prod`, ...; see README, "Production mode").
//
// Each entry point becomes one ES module bundle of the project's own code; packages stay imports of
// node_modules (native and WebAssembly packages load their files from there). The embedded
// storage thread (server/db/pglite-thread.ts) is an entry of its own, beside the others, where
// server/db/pglite-host.ts looks for it when it runs compiled.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_DIST = path.join(ROOT, 'dist');

/** dist/<name>.js ← source file. */
export const SERVER_ENTRIES: Record<string, string> = {
  main: 'main.ts',
  'pglite-thread': 'server/db/pglite-thread.ts',
  start: 'scripts/start.ts',
  migrate: 'scripts/migrate.ts',
  seed: 'scripts/seed.ts',
  replay: 'scripts/replay.ts',
  doctor: 'scripts/doctor.ts',
  log: 'scripts/log.ts',
  role: 'scripts/role.ts',
  account: 'scripts/account.ts',
  storage: 'scripts/storage.ts',
};

export async function buildServer(): Promise<void> {
  rmSync(SERVER_DIST, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: Object.entries(SERVER_ENTRIES).map(([out, source]) => ({ in: source, out })),
    outdir: SERVER_DIST,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer();
  console.log(`compiled ${Object.keys(SERVER_ENTRIES).length} entry points into dist/`);
}
