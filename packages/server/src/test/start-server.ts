import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PORT_TAKEN_EXIT } from '../config.ts';
import { freePort } from './free-port.ts';
import { waitFor } from './wait.ts';

const MAIN = path.join(import.meta.dirname, '..', 'main.ts');
const ROOT = path.resolve(import.meta.dirname, '../../../..');

export interface ServerStart {
  /** Settings over the defaults (demo mode, SQLite in the data directory, LOG_LEVEL warn). */
  env?: Record<string, string>;
  /** The data directory; a fresh temporary one (`vpp-<name>-…`) when absent. */
  dataDir?: string;
  /** Names the temporary data directory. */
  name?: string;
  /** Node flags after `--import tsx` (the soak's `--expose-gc` and its probe). */
  nodeArgs?: string[];
  /** 'pipe' hands the log to `onLog` line by line; 'inherit' (the default) prints it. */
  log?: 'inherit' | 'pipe';
  onLog?: (line: string) => void;
  /** An IPC channel to the child (the soak asks it for its memory). */
  ipc?: boolean;
  /**
   * How long the first /healthz may take (default 2 minutes): a start transpiles the server and
   * builds its fleet, which on two cores shared with other runs took over 40 s.
   */
  deadlineMs?: number;
  /** false: resolve once spawned, without waiting for /healthz (a start that is to crash before it answers). */
  waitForAnswer?: boolean;
  /** The HTTP port; a free one when absent (a restart on the same port keeps names made of it, such as the MQTT client id). */
  port?: number;
}

export interface ServerProcess {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** How the process ended: its signal, or its exit code. */
  exited: Promise<NodeJS.Signals | number | null>;
  /** Ends it (SIGTERM, a shutdown; SIGKILL, a power cut) and answers how it ended; the data stays. */
  end(signal?: 'SIGTERM' | 'SIGKILL'): Promise<NodeJS.Signals | number | null>;
}

/**
 * The real server (main.ts) in a child process on a free loopback port, resolved once /healthz
 * answers: the one way the crash tests, the end-to-end tests and the bench start it. A process that
 * exits first, or never answers, is ended and the start fails.
 */
export async function startServerProcess(opts: ServerStart = {}): Promise<ServerProcess> {
  // A free port is free when chosen, not always when the server listens (seconds later, after its
  // migrations): another process on the machine may take it meanwhile. The server then exits with
  // PORT_TAKEN_EXIT, and a port this function chose is chosen again (on the same data, as a restart).
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `vpp-${opts.name ?? 'server'}-`));
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce({ ...opts, dataDir }, opts.port ?? (await freePort()));
    } catch (err) {
      if (!(err instanceof PortTaken) || opts.port !== undefined || attempt === 5) throw err;
    }
  }
}

class PortTaken extends Error {}

async function startOnce(opts: ServerStart & { dataDir: string }, port: number): Promise<ServerProcess> {
  const { dataDir } = opts;
  const out = opts.log === 'pipe' ? 'pipe' : 'inherit';
  const child = spawn(process.execPath, ['--import', 'tsx', ...(opts.nodeArgs ?? []), MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'true',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...opts.env,
    },
    stdio: opts.ipc ? ['ignore', out, 'inherit', 'ipc'] : ['ignore', out, 'inherit'],
  });
  if (opts.onLog && child.stdout) {
    // pino writes one JSON line per entry: handed over whole.
    let partial = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) if (l) opts.onLog?.(l);
    });
  }
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const end = async (signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  const url = `http://127.0.0.1:${port}`;
  if (opts.waitForAnswer === false) return { url, dataDir, child, exited, end };
  try {
    await waitFor(
      'the server to answer',
      async () => {
        if (child.exitCode === PORT_TAKEN_EXIT) throw new PortTaken(`port ${port} was taken`);
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode})`);
        // A bounded wait: whatever else holds the port may never answer.
        return fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
          (r) => r.ok,
          () => false,
        );
      },
      opts.deadlineMs ?? 120_000,
    );
  } catch (err) {
    // A server that never answered must not outlive the run.
    await end('SIGKILL');
    throw err;
  }
  return { url, dataDir, child, exited, end };
}
