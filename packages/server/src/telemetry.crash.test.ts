import type { NodeModel } from '@vpp/fleet/physics';
import { afterAll, describe, expect, it } from 'vitest';
import type { SimParams } from './demo/builder.ts';
import { reporting } from './demo/simulator.ts';
import { coveredSeconds } from './test/covered-seconds.ts';
import { DIALECTS, fastClock, serverProcess, waitFor } from './test/server-process.ts';

/**
 * Live readings across kills: the real server in a child process, killed with SIGKILL inside a fold
 * and between reports, and started again on the same data. No reading is lost and none is counted
 * twice (split from recovery.crash.test.ts so that the crash lane runs the two side by side).
 */
/** What readings add up to per `node:bucket`: seconds and the time integrals of two metrics. */
interface Sums {
  cov: number;
  meter: number;
  solar: number;
}

const sumsBy = (rows: { node_id: number; ts: number; cov: number; meter: number | null; solar: number | null }[]) =>
  new Map(rows.map((r) => [`${r.node_id}:${r.ts}`, { cov: r.cov, meter: r.meter ?? 0, solar: r.solar ?? 0 } satisfies Sums]));

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`live readings across kills [${dialect}]`, () => {
    const fast = fastClock(15);
    const srv = serverProcess(dialect, 'fold-crash', fast.env);
    afterAll(() => srv.cleanup());

    /** The first bucket some node has not finished: every bucket before it is complete. */
    const openFrom = async () => {
      const [r] = await srv.query<{ ts: number | null }>('select min(ts) as ts from sim_state');
      return (r?.ts ?? 0) - ((r?.ts ?? 0) % 300);
    };

    it('killed inside a fold, folds its readings once after the restart', { timeout: 120_000 }, async () => {
      const s = await srv.start({ CRASH_AT: 'telemetry-fold:1' });
      expect(await s.exited).toBe('SIGKILL');
      // The kill came in the first fold that had readings to take (pass 1), before its commit. Two folds
      // race for it: the simulator's once a report has closed a bucket for every node, and the fold job's
      // at each boundary of the clock, which under load comes first and takes a bucket the simulator has
      // not finished. Either way no fold has committed, so raw (which only a fold writes) is empty and
      // every reading reported live is still open, the killed fold's among them: all of them are followed.
      const [raw] = await srv.query<{ n: number }>('select count(*) as n from tel_raw');
      expect(Number(raw.n), 'readings a fold moved to the history before the kill').toBe(0);
      const open = sumsBy(
        await srv.query(
          `select node_id, ts - ts % 300 as ts, sum(dt) as cov, sum(meter_p * dt) as meter, sum(solar_p * dt) as solar
           from tel_open group by node_id, ts - ts % 300`,
        ),
      );
      expect(open.size).toBeGreaterThan(0);
      const keys = [...open.keys()].map((k) => k.split(':').map(Number));
      const buckets = [...new Set(keys.map(([, ts]) => ts))];
      const end = Math.max(...buckets) + 300;
      // Where each node stood: a bucket it had not finished gets the rest of its readings after the restart.
      const stood = await srv.query<{ node_id: number; ts: number }>('select node_id, ts from sim_state');
      const rollup = async () =>
        sumsBy(await srv.query(`select node_id, ts, cov, meter_p as meter, solar_p as solar from tel_5m where ts in (${buckets.join(',')})`));
      const stored = await rollup();

      await srv.start();
      await waitFor('every node past those buckets, and their readings folded', async () => {
        const [r] = await srv.query<{ behind: number; open: number }>(
          `select (select count(*) from sim_state where ts < ${end}) as behind, (select count(*) from tel_open where ts < ${end}) as open`,
        );
        return Number(r.behind) === 0 && Number(r.open) === 0;
      });
      const after = await rollup();
      // The readings the restarted fleet added to those buckets, from where each node stood. Raw keeps
      // them all: a node resuming inside a bucket finishes it with a reading shorter than 5 minutes,
      // even when it catches a downtime up in 5-minute steps.
      const since = sumsBy(
        await srv.query(
          `with stood(node_id, ts) as (values ${stood.map((r) => `(${r.node_id}, ${r.ts})`).join(', ')})
           select r.node_id, r.ts - r.ts % 300 as ts, sum(r.dt) as cov, sum(r.meter_p * r.dt) as meter, sum(r.solar_p * r.dt) as solar
           from tel_raw r join stood on stood.node_id = r.node_id and r.ts >= stood.ts
           where r.ts < ${end} group by r.node_id, r.ts - r.ts % 300`,
        ),
      );
      const none = { cov: 0, meter: 0, solar: 0 };
      for (const [key, o] of open) {
        const was = stored.get(key) ?? none;
        const more = since.get(key) ?? none;
        const now = after.get(key);
        expect(now?.cov, `seconds of ${key}`).toBe(was.cov + o.cov + more.cov);
        expect(now?.meter, `meter integral of ${key}`).toBeCloseTo(was.meter + o.meter + more.meter, 0);
        expect(now?.solar, `solar integral of ${key}`).toBeCloseTo(was.solar + o.solar + more.solar, 0);
      }
      await srv.stop();
    });

    it('killed between reports, loses no reading and counts none twice', { timeout: 180_000 }, async () => {
      await srv.start();
      const started = fast.clock();
      const [{ n: fleet }] = await srv.query<{ n: number }>('select count(*) as n from nodes');
      /**
       * Buckets from `from` on reported live and folded: a node's 300 s in each all readings shorter
       * than 5 minutes, in raw (which keeps only what a fold has moved there). Waited for as such, not
       * as buckets of the clock nor as the simulator's position: a start first catches its downtime up
       * in 5-minute readings (which raw does not keep), and does so again after any report that comes
       * more than three reports late. Under the crash lane's load a slow start or late reports can pass
       * the clock's buckets with no live report in them (CI: 48 live buckets for 16 nodes in all, where
       * more than 3 a node were asserted).
       */
      const liveBuckets = async (from: number) => {
        const [r] = await srv.query<{ n: number }>(
          `select count(*) as n from (select node_id from tel_raw where ts >= ${from} group by node_id, ts - ts % 300 having sum(dt) = 300) b`,
        );
        return Number(r.n);
      };
      // Live reports on until a bucket of them has closed and been folded for every node, then a power cut.
      await waitFor('a bucket of live reports folded', async () => (await liveBuckets(started)) >= Number(fleet), 120_000);
      expect(await srv.kill()).toBe('SIGKILL');
      const killed = fast.clock();
      await srv.start();
      // Two buckets reported live after the restart.
      const afterKill = killed - (killed % 300) + 300;
      await waitFor('two buckets of live reports after the restart', async () => (await liveBuckets(afterKill)) >= Number(fleet) * 2, 120_000);
      await srv.stop();

      const end = await openFrom();
      const first = end - 86400 + 600;
      const cov = await coveredSeconds(srv, first);
      const nodes = await srv.query<{ id: number; commissioned_at: number | null; sim_json: string }>('select id, commissioned_at, sim_json from nodes');
      let full = 0;
      for (const n of nodes) {
        const unit = { model: { id: n.id } as NodeModel, params: JSON.parse(n.sim_json) as SimParams, commissionedAt: n.commissioned_at };
        for (let b = first; b < end; b += 300) {
          let throughout = true;
          for (let ts = b; ts < b + 300 && throughout; ts += 30) throughout = reporting(unit, ts);
          if (!throughout) continue;
          expect(cov.get(`${n.id}:${b}`), `node ${n.id}, bucket ${new Date(b * 1000).toISOString()}`).toBe(300);
          full++;
        }
      }
      expect(full).toBeGreaterThan(nodes.length * 200);
      // Where a bucket's readings were all live, its rollup holds exactly what they add up to.
      const live = await srv.query<{ node_id: number; ts: number; raw_cov: number; raw_meter: number | null; cov: number; meter: number | null }>(
        `select r.node_id, r.ts, r.raw_cov, r.raw_meter, f.cov, f.meter_p as meter
         from (select node_id, ts - ts % 300 as ts, sum(dt) as raw_cov, sum(meter_p * dt) as raw_meter from tel_raw group by node_id, ts - ts % 300) r
         join tel_5m f on f.node_id = r.node_id and f.ts = r.ts
         where r.raw_cov = 300`,
      );
      expect(live.length).toBeGreaterThan(nodes.length * 3);
      for (const r of live) {
        expect(r.cov, `seconds of ${r.node_id}:${r.ts}`).toBe(300);
        expect(r.meter ?? 0, `meter integral of ${r.node_id}:${r.ts}`).toBeCloseTo(r.raw_meter ?? 0, 0);
      }
    });
  });
}
