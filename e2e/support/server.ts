import fs from 'node:fs';
import path from 'node:path';
import { startServerProcess } from '../../packages/server/src/test/start-server.ts';

const root = path.resolve(import.meta.dirname, '../..');

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
  const server = await startServerProcess({ name: 'e2e', env: { SIM_NODES: '80', SIM_HISTORY_DAYS: '4', ...env } });
  return {
    url: server.url,
    dataDir: server.dataDir,
    stop: async () => {
      await server.end();
      fs.rmSync(server.dataDir, { recursive: true, force: true });
    },
  };
}
