import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { loginReply } from '@vpp/shared/auth/schemas';
import pg from 'pg';
import { expect } from 'vitest';
import { postLogin } from './sign-in.ts';
import { startServerProcess } from './start-server.ts';
import { waitFor } from './wait.ts';

export { waitFor };

export type Dialect = 'sqlite' | 'postgres';

export interface RunningServer {
  url: string;
  child: ChildProcess;
  /** How the process ended: its signal, or its exit code. */
  exited: Promise<NodeJS.Signals | number | null>;
}

export type Headers = Record<string, string>;

/** How long a start may take to answer /healthz: a start transpiles the server and builds its fleet, minutes at a load of 20 on two cores. */
const START_DEADLINE_MS = 5 * 60_000;
/** How long a start may run before its crash point kills it. */
const CRASH_DEADLINE_MS = 10 * 60_000;

/**
 * The real server (main.ts) in a child process on its own data (a temporary DATA_DIR, and on
 * PostgreSQL its own schema), for the tests that kill it with SIGKILL at chosen points (CRASH_AT)
 * and start it again on the same data, as after a power cut. `env` is every start's settings (a
 * demo fleet, its size and clock); each start may add more, such as the crash point.
 */
export function serverProcess(dialect: Dialect, name: string, env: Record<string, string>) {
  const pgUrl = process.env.TEST_DATABASE_URL;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vpp-${name}-`));
  const schema = `${name.replace(/\W/g, '_')}_${randomBytes(5).toString('hex')}`;
  let current: RunningServer | undefined;
  /** Every line the server processes have logged (at the LOG_LEVEL a start sets). */
  const log: string[] = [];
  let cleanedUp = false;

  /**
   * Starts the server; resolved once /healthz answers. A start on a busy machine (the tests share two
   * cores with other runs) may take minutes: the deadline is generous, and a process that exits fails
   * the start at once.
   */
  async function start(more: Record<string, string> = {}, waitForAnswer = true): Promise<RunningServer> {
    const p = await startServerProcess({
      dataDir,
      waitForAnswer,
      deadlineMs: START_DEADLINE_MS,
      log: 'pipe',
      // The log (pino, one JSON line per entry): kept for the tests that read what the server said.
      onLog: (line) => log.push(line),
      env: {
        LOG_LEVEL: 'error',
        CAPTCHA_COST: '200',
        DATABASE_URL: dialect === 'postgres' ? (pgUrl ?? '') : '',
        DATABASE_SCHEMA: dialect === 'postgres' ? schema : '',
        CRASH_AT: '',
        ...env,
        ...more,
      },
    });
    // A test that timed out during this start has cleaned up already: the server must not outlive it.
    if (cleanedUp) {
      p.child.kill('SIGKILL');
      throw new Error('the test ended while its server was starting');
    }
    current = { url: p.url, child: p.child, exited: p.exited };
    return current;
  }

  /**
   * Starts the server with a crash point that kills it (CRASH_AT), and answers how it ended once it
   * has: whether or not /healthz answered first. A server still running after CRASH_DEADLINE_MS (the
   * crash point never reached) is killed and the wait fails.
   */
  async function untilKilled(more: Record<string, string>): Promise<NodeJS.Signals | number | null> {
    const s = await start(more, false);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        s.child.kill('SIGKILL');
        reject(new Error(`The server did not reach its crash point (${more.CRASH_AT}) in ${CRASH_DEADLINE_MS / 60_000} minutes.`));
      }, CRASH_DEADLINE_MS);
    });
    try {
      return await Promise.race([s.exited, late]);
    } finally {
      clearTimeout(timer);
      current = undefined;
    }
  }

  /** Ends the running server: SIGKILL (a power cut) or SIGTERM (a shutdown). Answers how it ended. */
  async function end(signal: 'SIGKILL' | 'SIGTERM'): Promise<NodeJS.Signals | number | null> {
    const s = current;
    current = undefined;
    if (!s) return null;
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill(signal);
    return s.exited;
  }

  /** Reads the server's database from outside the process, as an operator would after a crash. */
  async function query<T>(text: string): Promise<T[]> {
    if (dialect === 'sqlite') {
      const db = new DatabaseSync(path.join(dataDir, 'console.db'));
      try {
        db.exec('PRAGMA busy_timeout = 5000');
        return db.prepare(text).all() as T[];
      } finally {
        db.close();
      }
    }
    const c = new pg.Client({ connectionString: pgUrl, options: `-c search_path=${schema}` });
    await c.connect();
    try {
      // PostgreSQL answers bigint and numeric as strings; the tests compare numbers.
      return (await c.query(text)).rows.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v])),
      ) as T[];
    } finally {
      await c.end();
    }
  }

  /** Signs a demo user in through the captcha and the login, as the console does. */
  async function signIn(url: string, username = 'retailer'): Promise<Headers> {
    const res = await postLogin(url, username);
    expect(res.status).toBe(200);
    return { authorization: `Bearer ${loginReply.parse(await res.json()).access_token}`, 'content-type': 'application/json' };
  }

  /** A GET, or a POST when there is a body, that must answer 200; its JSON. */
  async function call<T>(url: string, headers: Headers, body?: object): Promise<T> {
    const res = await fetch(url, { method: body ? 'POST' : 'GET', headers, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    expect(res.status, `${url}: ${text}`).toBe(200);
    return JSON.parse(text) as T;
  }

  /**
   * Waits until every simulated node has reported within the last two minutes of `clock` (the
   * server's clock): the fleet is live, so its batteries count as available to an allocation.
   */
  async function fleetLive(clock: () => number) {
    await waitFor('the fleet to report live', async () => {
      const [r] = await query<{ ts: number | null }>('select min(ts) as ts from sim_state');
      return (r?.ts ?? 0) >= clock() - 120;
    });
  }

  /** Stops the server and removes its data: for afterAll. */
  async function cleanup() {
    cleanedUp = true;
    await end('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (dialect === 'postgres') {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await c.end();
    }
  }

  return {
    dataDir,
    schema,
    log,
    start,
    untilKilled,
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
    query,
    signIn,
    call,
    fleetLive,
    cleanup,
    current: () => current,
  };
}

/** The dialects to run a server-process test on: PostgreSQL only when TEST_DATABASE_URL is set. */
export const DIALECTS: { dialect: Dialect; skip: boolean }[] = [
  { dialect: 'sqlite', skip: false },
  { dialect: 'postgres', skip: !process.env.TEST_DATABASE_URL },
];

/**
 * A clock run `rate` times faster than real time from now, for a server process whose events and
 * settlement must play out in seconds: `env` sets the server's clock (CLOCK_RATE, CLOCK_ANCHOR) over a
 * small live fleet, with a job lease and a settlement delay of 5 clock minutes, without the demo's
 * past dispatches (crash points count from the start: those would move which pass they kill) and
 * without the fleet's rare outages (SIM_OUTAGES=false: a unit's outage falls at an hour its id and the
 * day decide, so at some hours of some days it fell in a test's event, and the engine rightly dropped
 * the unit and gave its share to the others, which a test of a kill read as orders sent again);
 * `clock()` reads the servers' clock here the same way (epoch seconds). The fleet reports through
 * the in-process simulator, not the wire (SIM_WIRE=false): these tests follow the telemetry store's
 * and the events' crash safety by the simulator's position (`sim_state`), and at 60 times real time
 * the devices would each publish twice a second. The wire's own kills are in devices/.
 */
export function fastClock(rate: number) {
  const anchor = Math.floor(Date.now() / 1000);
  const env = {
    SIM_NODES: '16',
    SIM_HISTORY_DAYS: '1',
    SIM_DEMO_DISPATCHES: 'false',
    SIM_INTERVAL_S: '30',
    SIM_WIRE: 'false',
    SIM_OUTAGES: 'false',
    CLOCK_RATE: String(rate),
    CLOCK_ANCHOR: String(anchor),
    JOB_LEASE_S: '300',
    SETTLEMENT_DELAY_S: '300',
  };
  return { env, clock: () => Math.floor(anchor + (Date.now() / 1000 - anchor) * rate) };
}
