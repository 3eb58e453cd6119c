// `npm test`: unit, server integration (SQLite, and PostgreSQL when TEST_DATABASE_URL is set) and
// end-to-end tests in Chromium, in one Vitest run; ends with the plain 'N passed, N failed' line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureWebBuild } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
ensureWebBuild();
if (!process.env.TEST_DATABASE_URL) console.info('TEST_DATABASE_URL is not set: the PostgreSQL suites are skipped (counted below as skipped).');
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-test-')), 'report.json');
const r = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, TZ: 'UTC' } },
);
if (fs.existsSync(report)) {
  const j = JSON.parse(fs.readFileSync(report, 'utf8'));
  const skipped = j.numPendingTests + j.numTodoTests;
  console.info(`\n${j.numPassedTests} passed, ${j.numFailedTests} failed, ${skipped} skipped`);
}
process.exit(r.status ?? 1);
