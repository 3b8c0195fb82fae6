// `npm run bench [-- --quick] [-- --only search,replay]`: runs every scenario, prints a table and
// writes bench/results/<time>.json. Not a test: it never gates CI.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchRow, Scenario } from './types.ts';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg =
  args.find((a) => a.startsWith('--only='))?.slice('--only='.length) ??
  (args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined);
const only = onlyArg ? onlyArg.split(',') : null;

const SCENARIOS: Record<string, () => Promise<{ scenario: Scenario }>> = {
  search: () => import('./scenarios/search.ts'),
  map: () => import('./scenarios/map.ts'),
  reviews: () => import('./scenarios/reviews.ts'),
  replay: () => import('./scenarios/replay.ts'),
  live: () => import('./scenarios/live.ts'),
  photos: () => import('./scenarios/photos.ts'),
  startup: () => import('./scenarios/startup.ts'),
  embedded: () => import('./scenarios/embedded.ts'),
  client: () => import('./scenarios/client.ts'),
  growth: () => import('./scenarios/growth.ts'),
  share: () => import('./scenarios/share.ts'),
  storage: () => import('./scenarios/storage.ts'),
  replicas: () => import('./scenarios/replicas.ts'),
};

const rows: BenchRow[] = [];
const failures: { scenario: string; error: string }[] = [];
for (const [name, load] of Object.entries(SCENARIOS)) {
  if (only && !only.includes(name)) continue;
  const started = Date.now();
  console.log(`\n== ${name}${quick ? ' (quick)' : ''}`);
  try {
    const { scenario } = await load();
    const result = await scenario.run({ quick });
    rows.push(...result);
    for (const r of result) console.log(`   ${formatRow(r)}`);
  } catch (error) {
    failures.push({ scenario: name, error: String((error as Error).stack ?? error) });
    console.error(`   ${name} failed: ${(error as Error).message}`);
  }
  console.log(`   (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

function formatRow(r: BenchRow): string {
  const verdict = r.pass === undefined ? '' : r.pass ? '  PASS' : '  MISS';
  return `${r.metric.padEnd(44)} ${String(r.value).padStart(10)} ${r.unit.padEnd(8)} vs ${String(r.baseline).padStart(10)} (${r.baselineLabel})  ratio ${r.ratio}${r.target ? `  target ${r.target}${verdict}` : ''}`;
}

const machine = {
  cpus: os.cpus().length,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
};
console.log('\n' + ['scenario', 'metric', 'value', 'baseline', 'ratio', 'target'].join(' | '));
for (const r of rows) {
  console.log(
    [
      r.scenario,
      r.metric,
      `${r.value} ${r.unit}`,
      `${r.baseline} ${r.unit} (${r.baselineLabel})`,
      r.ratio,
      r.target ? `${r.target} ${r.pass ? 'PASS' : 'MISS'}` : '',
    ].join(' | '),
  );
}
const outDir = path.resolve('bench/results');
fs.mkdirSync(outDir, { recursive: true });
const file = path.join(outDir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
fs.writeFileSync(
  file,
  JSON.stringify({ at: new Date().toISOString(), quick, machine, rows, failures }, null, 2),
);
console.log(`\nWrote ${file}`);
if (failures.length > 0) process.exitCode = 1;
