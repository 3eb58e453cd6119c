// Builds the web app when its build is missing or older than any of its sources.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'packages/web/dist/index.html');
const sources = [
  'packages/web/src',
  'packages/web/public',
  'packages/web/index.html',
  'packages/web/vite.config.ts',
  'packages/shared/src',
  'package-lock.json',
];

function newest(p) {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((e) => newest(path.join(p, e))));
}

/** Runs `vite build` unless packages/web/dist is newer than every source. */
export function ensureWebBuild() {
  const builtAt = fs.statSync(built, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const changedAt = Math.max(...sources.map((s) => newest(path.join(root, s))));
  if (builtAt > changedAt) return;
  console.info(builtAt ? 'The web app changed since its last build: building it.' : 'Building the web app (first start).');
  const r = spawnSync('npm', ['run', 'build', '-w', '@vpp/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (import.meta.url === `file://${process.argv[1]}`) ensureWebBuild();
