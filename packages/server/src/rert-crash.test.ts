import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DEMO_PASSWORD, loginReply } from '@vpp/shared';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from './test/free-port.ts';

/**
 * kill -9 between a RERT reschedule and its orders (issue 12, Bad input and faults): the real server
 * in a child process, its clock 60 times faster than real time so that the engine's minute is a
 * second. Once the RERT dispatch's orders are out, a reschedule kills the server after it has
 * withdrawn the old orders and before it sends the new ones (CRASH_AT=rert-reschedule:1). On the
 * same data after a restart the event and its nodes' orders agree: the old window everywhere (the
 * transaction never committed); the reschedule asked again then moves every node to the new window,
 * none left with the old.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const main = path.join(import.meta.dirname, 'main.ts');
const RATE = 60;
/** How long any one condition may take to come true on a busy two-core machine (real time). */
const DEADLINE_MS = 40_000;

async function waitFor<T>(what: string, check: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe.skipIf(dialect === 'postgres' && !pgUrl)(`a RERT reschedule across a kill -9 of the server [${dialect}]`, () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-rert-crash-'));
    const schema = `rcrash_${randomBytes(5).toString('hex')}`;
    const anchor = Math.floor(Date.now() / 1000);
    /** The servers' clock, read here the same way. */
    const clock = () => Math.floor(anchor + (Date.now() / 1000 - anchor) * RATE);
    let child: ChildProcess | undefined;

    async function startServer(crashAt = ''): Promise<string> {
      const port = await freePort();
      const proc = spawn(process.execPath, ['--import', 'tsx', main], {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DEMO: 'true',
          LOG_LEVEL: 'error',
          CAPTCHA_COST: '200',
          DATABASE_URL: dialect === 'postgres' ? pgUrl : '',
          DATABASE_SCHEMA: dialect === 'postgres' ? schema : '',
          SIM_NODES: '16',
          SIM_HISTORY_DAYS: '1',
          SIM_INTERVAL_S: '30',
          CLOCK_RATE: String(RATE),
          CLOCK_ANCHOR: String(anchor),
          // A lease of 5 clock minutes is 5 real seconds.
          JOB_LEASE_S: '300',
          SETTLEMENT_DELAY_S: '300',
          CRASH_AT: crashAt,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child = proc;
      const url = `http://127.0.0.1:${port}`;
      await waitFor('the server to answer', async () => {
        if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`the server exited (${proc.exitCode ?? proc.signalCode})`);
        return fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      });
      return url;
    }

    async function kill(): Promise<NodeJS.Signals | number | null> {
      const proc = child as ChildProcess;
      const exited = new Promise<NodeJS.Signals | number | null>((resolve) => proc.once('exit', (code, signal) => resolve(signal ?? code)));
      proc.kill('SIGKILL');
      child = undefined;
      return exited;
    }

    /** Reads the server's database from outside the process. */
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
        return (await c.query(text)).rows.map((r) =>
          Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v])),
        ) as T[];
      } finally {
        await c.end();
      }
    }

    async function signIn(url: string) {
      const challenge = (await (await fetch(`${url}/auth/captcha/challenge`)).json()) as Parameters<typeof solveChallenge>[0]['challenge'];
      const solution = await solveChallenge({ challenge, deriveKey });
      const res = await fetch(`${url}/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: 'retailer',
          password: DEMO_PASSWORD,
          captchaToken: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
        }),
      });
      expect(res.status).toBe(200);
      return { authorization: `Bearer ${loginReply.parse(await res.json()).access_token}`, 'content-type': 'application/json' };
    }

    const call = async <T>(url: string, headers: Record<string, string>, body?: object): Promise<T> => {
      const res = await fetch(url, { method: body ? 'POST' : 'GET', headers, body: body ? JSON.stringify(body) : undefined });
      const text = await res.text();
      expect(res.status, `${url}: ${text}`).toBe(200);
      return JSON.parse(text) as T;
    };

    afterAll(async () => {
      if (child) await kill();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres') {
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await c.end();
      }
    });

    it('leaves every node with the event’s one window, and the reschedule asked again moves them all', { timeout: 120_000 }, async () => {
      let url = await startServer('rert-reschedule:1');
      let headers = await signIn(url);
      await waitFor('the fleet to report live', async () => {
        const [r] = await query<{ ts: number | null }>('select min(ts) as ts from sim_state');
        return (r?.ts ?? 0) >= clock() - 120;
      });
      const nodes = (await call<{ deployments: { id: number }[] }>(`${url}/v2/nodes?limit=100&offset=0`, headers)).deployments.map((d) => d.id);
      const vpp = (await call<{ data: { id: number } }>(`${url}/api/powerstations`, headers, { type: 'STATIC', name: 'Crash fleet', nodes })).data.id;
      const c = (await call<{ data: { realPowerPMin: number } }>(`${url}/api/powerstations/${vpp}/constraints?duration=1800`, headers)).data;
      expect(c.realPowerPMin).toBeLessThan(0);
      const realPowerP = Math.ceil(c.realPowerPMin * 5) / 10;
      // Six clock hours ahead: six real minutes, upcoming throughout the test.
      const now = clock();
      const start = now - (now % 300) + 6 * 3600;
      const moved = start + 3600;
      const id = (
        await call<{ data: { id: number } }>(`${url}/api/rert-dispatches`, headers, { powerstation: vpp, startTime: start, duration: 1800, realPowerP })
      ).data.id;

      type Command = { node_id: number; start_ts: number; status: string };
      const live = () =>
        query<Command>(
          `select node_id, start_ts, status from node_commands where source = 'dispatch:${id}' and status in ('PENDING', 'ACCEPTED') order by node_id`,
        );
      const allocated = async () =>
        (await query<{ node_id: number }>(`select node_id from dispatch_nodes where event_id = ${id} order by node_id`)).map((r) => r.node_id);
      // A node's orders hold one window: its first starts with the window and all lie within it (a
      // battery that runs out early has a second, lower order for its last minutes).
      const holds = (l: Command[], from: number) =>
        l.every((o) => o.start_ts >= from && o.start_ts < from + 1800) &&
        nodesOf(l).every((n) => Math.min(...l.filter((o) => o.node_id === n).map((o) => o.start_ts)) === from);
      const nodesOf = (l: Command[]) => [...new Set(l.map((o) => o.node_id))];
      const orders = await waitFor('the orders to go out', async () => {
        const l = await live();
        return l.length > 0 && l;
      });
      expect(holds(orders, start)).toBe(true);

      // The reschedule kills the server between the old orders' withdrawal and the new ones.
      const exited = new Promise((resolve) => (child as ChildProcess).once('exit', (code, signal) => resolve(signal ?? code)));
      const reply = await fetch(`${url}/api/rert-dispatches/${id}/reschedule`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ startTime: moved, duration: 1800 }),
      }).then(
        (r) => r.status,
        () => 'no reply',
      );
      expect(reply).toBe('no reply');
      expect(await exited).toBe('SIGKILL');
      child = undefined;

      // Before any restart: the event and every node's live order hold the one (old) window.
      const [event] = await query<{ start_time: number }>(`select start_time from events where id = ${id}`);
      expect(event.start_time).toBe(start);
      const afterCrash = await live();
      expect(nodesOf(afterCrash)).toEqual(await allocated());
      expect(holds(afterCrash, start)).toBe(true);

      // Restarted on the same data, the reschedule asked again: every node holds the new window, none the old.
      url = await startServer();
      headers = await signIn(url);
      await call(`${url}/api/rert-dispatches/${id}/reschedule`, headers, { startTime: moved, duration: 1800 });
      const afterMove = await live();
      expect(afterMove.length).toBeGreaterThan(0);
      expect(nodesOf(afterMove)).toEqual(await allocated());
      expect(holds(afterMove, moved)).toBe(true);
      // The engine, running on, sends nothing more.
      await new Promise((r) => setTimeout(r, 3000));
      expect(await live()).toEqual(afterMove);
      await kill();
    });
  });
}
