// Adds up vitest's JSON reports into one closing line: "N passed, N failed, N skipped", and names
// every failed test (with the first lines of its message) just above it, so the tail of a CI log
// says what broke.
import fs from 'node:fs';
import path from 'node:path';

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) continue;
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const suite = path.basename(file, '.json');
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  for (const result of report.testResults ?? []) {
    const testFile = path.relative(process.cwd(), result.name ?? '');
    const assertions = result.assertionResults ?? [];
    for (const a of assertions.filter((x) => x.status === 'failed')) {
      failures.push({
        suite,
        where: `${testFile} > ${a.fullName ?? a.title}`,
        messages: a.failureMessages ?? [],
      });
    }
    if (result.status === 'failed' && assertions.every((a) => a.status !== 'failed')) {
      failed += 1;
      failures.push({ suite, where: `${testFile} (file failed)`, messages: [result.message ?? ''] });
    }
  }
  console.log(`${file}: ${report.numPassedTests ?? 0} passed, ${report.numFailedTests ?? 0} failed`);
}
// Test files the watchdog killed (tests/helpers/watchdog.ts): named here whether or not their retry
// passed, so a hang never goes unnoticed.
const reports = path.dirname(process.argv[2] ?? '.');
for (const dir of fs.existsSync(reports) ? fs.readdirSync(reports) : []) {
  if (!dir.startsWith('hung-')) continue;
  for (const f of fs.readdirSync(path.join(reports, dir))) {
    const hang = JSON.parse(fs.readFileSync(path.join(reports, dir, f), 'utf8'));
    console.log(
      `HUNG [${dir.slice(5)}] ${hang.file} > ${hang.test || '(setup)'}: killed after ${hang.silent} s`,
    );
  }
}
for (const f of failures) {
  console.log(`FAILED [${f.suite}] ${f.where}`);
  const text = f.messages.join('\n').split('\n').slice(0, 6).join('\n    ');
  if (text.trim()) console.log(`    ${text}`);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
