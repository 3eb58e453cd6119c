// `npm test`: unit, server integration (SQLite, and PostgreSQL when TEST_DATABASE_URL is set) and
// end-to-end tests in Chromium; ends with the plain 'N passed, N failed, N skipped' line.
//
// Two Vitest runs side by side: the end-to-end files (one at a time, each with its own server and
// browser) and the rest (on every core). In one run Vitest took the end-to-end files last, one worker
// busy and the other idle, while much of their time is spent waiting on a server's clock or a page.
// The end-to-end output is kept and printed after the other run's, so the two do not interleave.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureWebBuild } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
ensureWebBuild();
if (!process.env.TEST_DATABASE_URL) console.info('TEST_DATABASE_URL is not set: the PostgreSQL suites are skipped (counted below as skipped).');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-test-'));
const args = process.argv.slice(2);

/** One Vitest run of some projects; resolves with its exit status and its JSON report's path. */
function run(name, projects, output) {
  const report = path.join(dir, `${name}.json`);
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'node_modules/vitest/vitest.mjs'),
      'run',
      ...projects.flatMap((p) => ['--project', p]),
      '--passWithNoTests',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...args,
    ],
    { cwd: root, stdio: ['ignore', output, output], env: { ...process.env, TZ: 'UTC' } },
  );
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ status: code ?? (signal ? 1 : 0), report })));
}

const e2eLog = path.join(dir, 'e2e.log');
const e2eOut = fs.openSync(e2eLog, 'w');
const [units, e2e] = await Promise.all([run('units', ['shared', 'server', 'web'], 'inherit'), run('e2e', ['e2e'], e2eOut)]);
fs.closeSync(e2eOut);
console.info('\n── end-to-end tests ──');
process.stdout.write(fs.readFileSync(e2eLog, 'utf8'));

const totals = { passed: 0, failed: 0, skipped: 0 };
let missing = false;
for (const { report } of [units, e2e]) {
  if (!fs.existsSync(report)) {
    missing = true;
    continue;
  }
  const j = JSON.parse(fs.readFileSync(report, 'utf8'));
  totals.passed += j.numPassedTests;
  totals.failed += j.numFailedTests;
  totals.skipped += j.numPendingTests + j.numTodoTests;
}
console.info(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(units.status || e2e.status || (missing ? 1 : 0));
