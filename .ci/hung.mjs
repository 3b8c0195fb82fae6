// Prints the test files a suite's watchdog killed (one per line), if those hangs are the suite's
// only failures; prints nothing otherwise. Usage: node .ci/hung.mjs <report-dir> <vitest-json>
import fs from 'node:fs';
import path from 'node:path';

const [dir, jsonFile] = process.argv.slice(2);
const hung = fs.existsSync(dir)
  ? fs.readdirSync(dir).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).file)
  : [];
if (hung.length === 0 || !fs.existsSync(jsonFile)) process.exit(0);
const report = JSON.parse(fs.readFileSync(jsonFile, 'utf8'));
const otherFailures =
  (report.numFailedTests ?? 0) > 0 ||
  (report.testResults ?? []).some(
    (r) => r.status === 'failed' && !hung.includes(path.relative(process.cwd(), r.name ?? '')),
  );
if (!otherFailures) console.log([...new Set(hung.filter(Boolean))].join('\n'));
