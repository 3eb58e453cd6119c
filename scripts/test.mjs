// `npm test`: unit, server integration (SQLite, and PostgreSQL when TEST_DATABASE_URL is set), the
// crash tests (the server in a child process) and end-to-end tests in Chromium; ends with the plain
// 'N passed, N failed, N skipped' line.
//
// Three Vitest runs on two lanes, each lane taking the next run when its last one ends: the
// end-to-end files (one at a time, each with its own server and browser), the units (on every core),
// then the crash tests. In one run Vitest took the slow files last, one worker busy and the other
// idle, while much of their time is spent waiting on a server's clock or a page. Each run's output
// is printed whole when it ends, so that two runs do not interleave.
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

/** One Vitest run of some projects, its output kept and printed whole when it ends; resolves with its exit status and JSON report. */
function run(name, projects) {
  const report = path.join(dir, `${name}.json`);
  const log = path.join(dir, `${name}.log`);
  const out = fs.openSync(log, 'w');
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
    { cwd: root, stdio: ['ignore', out, out], env: { ...process.env, TZ: 'UTC' } },
  );
  return new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      fs.closeSync(out);
      console.info(`\n── ${name} (${projects.join(', ')}) ──`);
      process.stdout.write(fs.readFileSync(log, 'utf8'));
      resolve({ status: code ?? (signal ? 1 : 0), report });
    }),
  );
}

// The longest first: the end-to-end run on one lane, the units then the crash tests on the other.
const queue = [
  ['e2e', ['e2e']],
  ['units', ['shared', 'fleet', 'server', 'web']],
  ['crash', ['crash']],
];
const results = [];
async function lane() {
  for (let next = queue.shift(); next; next = queue.shift()) results.push(await run(...next));
}
await Promise.all([lane(), lane()]);

const totals = { passed: 0, failed: 0, skipped: 0 };
let missing = false;
for (const { report } of results) {
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
process.exit(results.some((r) => r.status) || missing ? 1 : 0);
