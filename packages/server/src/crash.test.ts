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
import type { SimParams } from './fleet/builder.ts';
import type { NodeModel } from './fleet/physics.ts';
import { reporting } from './fleet/simulator.ts';
import { freePort } from './test/free-port.ts';

/**
 * Crash recovery: the real server in a child process, killed with SIGKILL at chosen points (CRASH_AT)
 * and started again on the same data, as after a power cut. After each restart nothing committed
 * is lost, no telemetry is counted twice, no second of any node is missing, and work in hand resumes.
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const main = path.join(import.meta.dirname, 'main.ts');
const INTERVAL = 5;
const NODES = 6;
/** How long any one condition may take to come true on a busy two-core machine. */
const DEADLINE_MS = 45_000;

/** Polls `check` until it answers something other than undefined or false; fails after the deadline. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Server {
  url: string;
  child: ChildProcess;
  exited: Promise<NodeJS.Signals | number | null>;
}

/** Reads the server's database from outside the process, as an operator would after a crash. */
interface Peek {
  all<T>(text: string): Promise<T[]>;
  close(): Promise<void>;
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  describe.skipIf(dialect === 'postgres' && !pgUrl)(`crash recovery [${dialect}]`, () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vpp-crash-'));
    const schema = `crash_${randomBytes(5).toString('hex')}`;
    const started = Math.floor(Date.now() / 1000);
    let server: Server | undefined;

    async function start(crashAt?: string): Promise<Server> {
      const port = await freePort();
      const child = spawn(process.execPath, ['--import', 'tsx', main], {
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
          SIM_NODES: String(NODES),
          SIM_HISTORY_DAYS: '1',
          SIM_INTERVAL_S: String(INTERVAL),
          JOB_LEASE_S: '3',
          CRASH_AT: crashAt ?? '',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
      const url = `http://127.0.0.1:${port}`;
      await waitFor('the server to answer', async () => {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode})`);
        return fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      });
      server = { url, child, exited };
      return server;
    }

    async function stop() {
      if (server && server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      server = undefined;
    }

    async function peek(): Promise<Peek> {
      if (dialect === 'sqlite') {
        const db = new DatabaseSync(path.join(dataDir, 'console.db'));
        db.exec('PRAGMA busy_timeout = 5000');
        return { all: async <T>(text: string) => db.prepare(text).all() as T[], close: async () => db.close() };
      }
      const c = new pg.Client({ connectionString: pgUrl, options: `-c search_path=${schema}` });
      await c.connect();
      return {
        all: async <T>(text: string) =>
          (await c.query(text)).rows.map((r) =>
            Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v])),
          ) as T[],
        close: () => c.end(),
      };
    }

    async function query<T>(text: string): Promise<T[]> {
      const p = await peek();
      try {
        return await p.all<T>(text);
      } finally {
        await p.close();
      }
    }

    /** The simulated position every node has reached (the least of them). */
    const simulatedTo = async () => (await query<{ ts: number | null }>('select min(ts) as ts from sim_state'))[0]?.ts ?? 0;

    async function signIn(url: string, username: string) {
      const challenge = (await (await fetch(`${url}/auth/captcha/challenge`)).json()) as Parameters<typeof solveChallenge>[0]['challenge'];
      const solution = await solveChallenge({ challenge, deriveKey });
      const res = await fetch(`${url}/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: DEMO_PASSWORD, captchaToken: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64') }),
      });
      expect(res.status).toBe(200);
      return { authorization: `Bearer ${loginReply.parse(await res.json()).access_token}`, 'content-type': 'application/json' };
    }

    afterAll(async () => {
      await stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (dialect === 'postgres') {
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await c.end();
      }
    });

    it('killed inside a telemetry write, resumes where the last committed report left off', { timeout: 90_000 }, async () => {
      // The first write is the history backfill; the second is the first live report.
      const s = await start('telemetry-write:2');
      expect(await s.exited).toBe('SIGKILL');
      const restarted = Math.floor(Date.now() / 1000);
      await start();
      // Two live reports after the restart: the catch-up is done and the fleet reports again.
      await waitFor('live reports after the restart', async () => (await simulatedTo()) >= restarted + 2 * INTERVAL);
      await stop();
    });

    it('killed inside a running job, finishes the job after the restart', { timeout: 90_000 }, async () => {
      // Killed as the first e-mail job finishes, whatever other job (an hourly digest) runs first.
      const s = await start('job:1:mail.send');
      // A password-reset e-mail goes through the job queue: once this answers, the job is committed.
      const reset = await fetch(`${s.url}/password/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'retailer@example.com' }),
      });
      expect(reset.status).toBe(200);
      expect(await s.exited).toBe('SIGKILL');
      const interrupted = await query<{ id: number; kind: string }>("select id, kind from jobs where status = 'pending' and locked_by is not null");
      expect(interrupted).toMatchObject([{ kind: 'mail.send' }]);
      await start();
      const [job] = await waitFor('the interrupted job to finish', async () => {
        const rows = await query<{ status: string; attempts: number }>(`select status, attempts from jobs where id = ${interrupted[0].id}`);
        return rows[0]?.status === 'done' && rows;
      });
      // The first attempt died with the process; the second, after the lease ran out, finished it.
      expect(job.attempts).toBe(2);
      const mail = await waitFor('the reset e-mail in the outbox', () => {
        const file = path.join(dataDir, 'outbox', `mail-${String(interrupted[0].id).padStart(8, '0')}.eml`);
        return fs.existsSync(file) && fs.readFileSync(file, 'utf8');
      });
      expect(mail).toContain('To: retailer@example.com');
      await stop();
    });

    it('killed inside a VPP change, keeps the VPP as it was before the change', { timeout: 90_000 }, async () => {
      const s = await start('vpp-change:1');
      const headers = await signIn(s.url, 'retailer');
      const nodes = (await query<{ id: number }>('select id from nodes order by id')).map((r) => r.id);
      const created = await fetch(`${s.url}/api/powerstations`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: 'STATIC', name: 'Crash A', nodes: nodes.slice(0, 2) }),
      });
      expect(created.status).toBe(200);
      const id = ((await created.json()) as { data: { id: number } }).data.id;
      const change = await fetch(`${s.url}/api/powerstations/${id}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ type: 'STATIC', name: 'Crash B', nodes: nodes.slice(2, 3) }),
      }).catch((err: unknown) => err);
      // The reply never came: the process died half-way through the change.
      expect(change).toBeInstanceOf(Error);
      expect(await s.exited).toBe('SIGKILL');
      const again = await start();
      const after = await signIn(again.url, 'retailer');
      const vpp = (await (await fetch(`${again.url}/v2/powerstations/${id}`, { headers: after })).json()) as { name: string };
      expect(vpp.name).toBe('Crash A');
      const members = await query<{ node_id: number }>(`select node_id from vpp_nodes where powerstation_id = ${id} order by node_id`);
      expect(members.map((m) => m.node_id)).toEqual(nodes.slice(0, 2));
      await stop();
    });

    it('after every crash the database is sound, no telemetry is counted twice and no second is missing', { timeout: 60_000 }, async () => {
      if (dialect === 'sqlite') expect(await query<{ integrity_check: string }>('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const over = await query<{ node_id: number; ts: number; cov: number }>('select node_id, ts, cov from tel_5m where cov > 300');
      expect(over, 'node 5-minute buckets with more than 300 s of readings').toEqual([]);
      const overHour = await query<{ node_id: number; ts: number; cov: number }>('select node_id, ts, cov from tel_1h where cov > 3600');
      expect(overHour, 'node hours with more than 3600 s of readings').toEqual([]);
      const fleetOver = await query<{ organisation_id: number; ts: number }>(
        'select o.organisation_id, o.ts from org_5m o where o.cov > 300 * (select count(*) from fleet_members m where m.organisation_id = o.organisation_id)',
      );
      expect(fleetOver, 'fleet 5-minute buckets with more readings than the fleet has nodes').toEqual([]);

      // Every bucket in which a node reported throughout holds exactly its 300 seconds, from the
      // start of the history to the last bucket every node has finished.
      const end = await simulatedTo();
      const first = Math.floor((started - 86400) / 300) * 300 + 300;
      const nodes = await query<{ id: number; commissioned_at: number | null; sim_json: string }>('select id, commissioned_at, sim_json from nodes');
      const cov = new Map(
        (await query<{ node_id: number; ts: number; cov: number }>(`select node_id, ts, cov from tel_5m where ts >= ${first}`)).map((r) => [
          `${r.node_id}:${r.ts}`,
          r.cov,
        ]),
      );
      let full = 0;
      for (const n of nodes) {
        const unit = { model: { id: n.id } as NodeModel, params: JSON.parse(n.sim_json) as SimParams, commissionedAt: n.commissioned_at };
        for (let b = first; b + 300 <= end; b += 300) {
          let throughout = true;
          for (let ts = b; ts < b + 300 && throughout; ts += INTERVAL) throughout = reporting(unit, ts);
          if (!throughout) continue;
          expect(cov.get(`${n.id}:${b}`), `node ${n.id}, bucket ${new Date(b * 1000).toISOString()}`).toBe(300);
          full++;
        }
      }
      expect(full).toBeGreaterThan(NODES * 200);
    });
  });
}
