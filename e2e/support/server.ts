import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** A small simulated fleet: the demo default (300 nodes, 30 days) takes most of a minute to build. */
export const SMALL_FLEET = { SIM_NODES: '5', SIM_HISTORY_DAYS: '1' };
/** No simulated fleet: the account screens (settings, users, notifications, passwords) do not need one. */
export const NO_FLEET = { SIMULATOR: 'false' };

export interface RunningServer {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts the real server (demo mode, the built web app) on a fresh data directory and a free port. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!fs.existsSync(path.join(root, 'packages/web/dist/index.html'))) throw new Error('Build the web app first: npm run build');
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'true',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      SIM_NODES: '80',
      SIM_HISTORY_DAYS: '4',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`server exited with ${child.exitCode}`);
    }
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      // A server that never answered must not outlive the test run.
      await stop();
      throw new Error('server did not start in 60 s');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, dataDir, stop };
}
