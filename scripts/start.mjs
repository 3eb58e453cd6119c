// `npm start`: builds the web app if needed, then runs the server (API, web app, workers) in one process.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureWebBuild } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
ensureWebBuild();
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
