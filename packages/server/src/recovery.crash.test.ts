import fs from 'node:fs';
import path from 'node:path';
import type { NodeModel } from '@vpp/fleet/physics';
import { afterAll, describe, expect, it } from 'vitest';
import type { SimParams } from './demo/builder.ts';
import { reporting } from './demo/simulator.ts';
import { coveredSeconds } from './test/covered-seconds.ts';
import { DIALECTS, serverProcess, waitFor } from './test/server-process.ts';

/**
 * Crash recovery: the real server in a child process, killed with SIGKILL at chosen points (CRASH_AT)
 * and started again on the same data, as after a power cut. After each restart nothing committed
 * is lost, no telemetry is counted twice, no second of any node is missing, and work in hand resumes.
 */
const INTERVAL = 5;
const NODES = 6;

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`crash recovery [${dialect}]`, () => {
    const started = Math.floor(Date.now() / 1000);
    const srv = serverProcess(dialect, 'crash', {
      SIM_NODES: String(NODES),
      SIM_HISTORY_DAYS: '1',
      // Its crash points count from the start: the demo's past dispatches would move which write or settlement they are.
      SIM_DEMO_DISPATCHES: 'false',
      SIM_INTERVAL_S: String(INTERVAL),
      // Its kills land in the simulator's direct writes of the telemetry store, followed by its position (sim_state).
      SIM_WIRE: 'false',
      JOB_LEASE_S: '3',
    });
    afterAll(() => srv.cleanup());

    /** The simulated position every node has reached (the least of them). */
    const simulatedTo = async () => (await srv.query<{ ts: number | null }>('select min(ts) as ts from sim_state'))[0]?.ts ?? 0;

    it('killed inside a telemetry write, resumes where the last committed report left off', { timeout: 90_000 }, async () => {
      // The first write is the history backfill; the second is the first live report, or, when the backfill is
      // written in more than one piece, a later piece of it: the kill may then come before the server answers.
      const killed = await srv.start({ CRASH_AT: 'telemetry-write:2' }).then(
        (s) => s.exited,
        (e: unknown) => {
          if (String(e).includes('the server exited (SIGKILL)')) return 'SIGKILL';
          throw e;
        },
      );
      expect(killed).toBe('SIGKILL');
      const restarted = Math.floor(Date.now() / 1000);
      await srv.start();
      // Two live reports after the restart: the catch-up is done and the fleet reports again.
      await waitFor('live reports after the restart', async () => (await simulatedTo()) >= restarted + 2 * INTERVAL);
      await srv.stop();
    });

    it('killed inside a running job, finishes the job after the restart', { timeout: 90_000 }, async () => {
      // Killed as the first e-mail job finishes, whatever other job (an hourly digest) runs first.
      const s = await srv.start({ CRASH_AT: 'job:1:mail.send' });
      // A password-reset e-mail goes through the job queue: once this answers, the job is committed.
      const reset = await fetch(`${s.url}/password/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'retailer@example.com' }),
      });
      expect(reset.status).toBe(200);
      expect(await s.exited).toBe('SIGKILL');
      // The e-mail job in hand when the process died, leased and never finished. The worker's other
      // lane may have held a job too (the recurring jobs due at start run as the server begins to
      // answer): those are taken up again after their leases in the same way.
      const interrupted = await srv.query<{ id: number; kind: string }>(
        "select id, kind from jobs where status = 'pending' and locked_by is not null and kind = 'mail.send'",
      );
      expect(interrupted).toMatchObject([{ kind: 'mail.send' }]);
      await srv.start();
      const [job] = await waitFor('the interrupted job to finish', async () => {
        const rows = await srv.query<{ status: string; attempts: number }>(`select status, attempts from jobs where id = ${interrupted[0].id}`);
        return rows[0]?.status === 'done' && rows;
      });
      // The first attempt died with the process; the second, after the lease ran out, finished it.
      expect(job.attempts).toBe(2);
      const mail = await waitFor('the reset e-mail in the outbox', () => {
        const file = path.join(srv.dataDir, 'outbox', `mail-${String(interrupted[0].id).padStart(8, '0')}.eml`);
        return fs.existsSync(file) && fs.readFileSync(file, 'utf8');
      });
      expect(mail).toContain('To: retailer@example.com');
      await srv.stop();
    });

    it('killed inside a VPP change, keeps the VPP as it was before the change', { timeout: 90_000 }, async () => {
      const s = await srv.start({ CRASH_AT: 'vpp-change:1' });
      const headers = await srv.signIn(s.url, 'retailer');
      const nodes = (await srv.query<{ id: number }>('select id from nodes order by id')).map((r) => r.id);
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
      const again = await srv.start();
      const after = await srv.signIn(again.url, 'retailer');
      const vpp = (await (await fetch(`${again.url}/v2/powerstations/${id}`, { headers: after })).json()) as { name: string };
      expect(vpp.name).toBe('Crash A');
      const members = await srv.query<{ node_id: number }>(`select node_id from vpp_nodes where powerstation_id = ${id} order by node_id`);
      expect(members.map((m) => m.node_id)).toEqual(nodes.slice(0, 2));
      await srv.stop();
    });

    it('after every crash the database is sound, no telemetry is counted twice and no second is missing', { timeout: 60_000 }, async () => {
      if (dialect === 'sqlite') expect(await srv.query<{ integrity_check: string }>('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const over = [...(await coveredSeconds(srv, 0))].filter(([, c]) => c > 300);
      expect(over, 'node 5-minute buckets with more than 300 s of readings').toEqual([]);
      const fleetOver = await srv.query<{ organisation_id: number; ts: number }>(
        'select o.organisation_id, o.ts from org_5m o where o.cov > 300 * (select count(*) from fleet_members m where m.organisation_id = o.organisation_id)',
      );
      expect(fleetOver, 'fleet 5-minute buckets with more readings than the fleet has nodes').toEqual([]);

      // Every bucket in which a node reported throughout holds exactly its 300 seconds, from the
      // start of the history to the last bucket every node has finished.
      const end = await simulatedTo();
      const first = Math.floor((started - 86400) / 300) * 300 + 300;
      const nodes = await srv.query<{ id: number; commissioned_at: number | null; sim_json: string }>('select id, commissioned_at, sim_json from nodes');
      // A reading is in the 5-minute history once its bucket is folded, in the open readings until then.
      const cov = await coveredSeconds(srv, first);
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

/**
 * The live report: readings wait in the open table until their 5-minute bucket closes, then a fold
 * moves them into the history in one transaction. Killed inside a fold (its writes done, its commit
 * not), and again between reports, the server restarts with every reading counted exactly once:
 * the closed buckets' rollups hold what their readings add up to, no more, no less.
 */
