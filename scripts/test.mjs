// `npm test`: unit, server integration (SQLite, and PostgreSQL when TEST_DATABASE_URL is set), the
// crash tests (the server in a child process) and end-to-end tests in Chromium; ends with the plain
// 'N passed, N failed, N skipped' line.
//
// Three Vitest runs at once: the end-to-end files (one at a time, each with its own server and
// browser), the units, and the crash tests (the server in a child process). Much of the end-to-end
// and crash time is spent waiting on a server's clock or a page, so they overlap the units. Each
// run's output is printed whole when it ends, so that two runs do not interleave.
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
function run(name, projects, workers, env = {}) {
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
      `--maxWorkers=${workers}`,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...args,
    ],
    { cwd: root, stdio: ['ignore', out, out], env: { ...process.env, ...env, TZ: 'UTC' } },
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

// The crash tests' servers on PostgreSQL get databases of their own (packages/server/src/test/worker-database.ts,
// which names them after the lane): a schema that the units drop while a crash test's server reads the
// catalogue (Kysely's migrator lists every schema's tables) failed that start with 'schema "t_…" does not exist'.
const crashEnv = { TEST_DATABASE_LANE: 'crash' };

// Three lanes at once: the end-to-end files, the units, and the crash tests. The crash tests spend most
// of their time waiting on a server's clock (a report interval, a kill, a restart), not on a core, so
// they run beside the other two instead of after the units (in turn they added ~11 minutes).
//
// Each lane runs several files at once. With one file at a time per lane (three at once in all), a CI
// run took 23 minutes on a quiet machine and its processes 22 CPU-minutes (PostgreSQL's aside): about
// one of the two cores. Most of a file's time is a wait (a server's clock, a page, the database). Each worker has its own PostgreSQL database
// (packages/server/src/test/worker-database.ts).
const results = await Promise.all([run('e2e', ['e2e'], 2), run('units', ['shared', 'fleet', 'server', 'web'], 2), run('crash', ['crash'], 3, crashEnv)]);

const totals = { passed: 0, failed: 0, skipped: 0 };
const intermittent = [];
const failed = [];
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
  for (const file of j.testResults) {
    if (file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed'))
      failed.push(`${path.relative(root, file.name)} (the file itself: ${String(file.message).split('\n')[0]})`);
    for (const t of file.assertionResults) {
      const where = `${path.relative(root, file.name)} > ${t.fullName}`;
      if (t.status === 'failed') failed.push(where);
      // A test that failed and then passed on its retry keeps the first attempt's errors.
      else if (t.status === 'passed' && t.failureMessages.length) intermittent.push(`${where}\n    ${t.failureMessages[0].split('\n')[0]}`);
    }
  }
}
// Named again at the end, where a truncated CI log still shows them.
if (intermittent.length) console.info(`\nIntermittent (failed, then passed on the retry):\n  ${intermittent.join('\n  ')}`);
if (failed.length) console.info(`\nFailed:\n  ${failed.join('\n  ')}`);
console.info(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(results.some((r) => r.status) || missing ? 1 : 0);
