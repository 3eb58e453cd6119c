import type { NodeModel } from '@vpp/fleet/physics';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { nowS } from '../db/database.ts';
import { nodeReports } from '../features/nodes/index.ts';
import { armCrashPoint } from '../platform/crash-points.ts';
import { describeEachDatabase } from '../test/harness.ts';
import { buildFleet, type SimParams } from './builder.ts';
import { FleetSimulator, reporting } from './simulator.ts';

const HOUR = 3600;
const LIVE = 30;

describeEachDatabase('fleet simulator after a crash or a downtime', (h) => {
  // Two days ago, so that a long downtime still ends before now.
  const seam = Math.floor(nowS() / 300) * 300 - 2 * 86400;
  const from = seam - 2 * HOUR;
  let nodes: { id: number; commissioned_at: number | null; params: SimParams }[];

  const simulator = async () => {
    const sim = new FleetSimulator(h().ctx.db, h().ctx.telemetry, { intervalS: LIVE, reports: nodeReports(h().ctx) });
    await sim.load();
    return sim;
  };

  /**
   * Checks every node's 5-minute buckets in [start, end): never more than 300 s of readings, and
   * exactly 300 s in every bucket the node reported throughout. Answers how many were full.
   */
  async function expectEverySecondOnce(start: number, end: number): Promise<number> {
    const rows = await h().ctx.db.selectFrom('tel_5m').select(['node_id', 'ts', 'cov']).where('ts', '>=', start).where('ts', '<', end).execute();
    const cov = new Map(rows.map((r) => [`${r.node_id}:${Number(r.ts)}`, Number(r.cov)]));
    let full = 0;
    for (const n of nodes) {
      const unit = { model: { id: n.id } as NodeModel, params: n.params, commissionedAt: n.commissioned_at === null ? null : Number(n.commissioned_at) };
      for (let b = start; b < end; b += 300) {
        const seconds = cov.get(`${n.id}:${b}`) ?? 0;
        const at = `node ${n.id}, bucket ${(b - seam) / 60} min after the seam`;
        expect(seconds, at).toBeLessThanOrEqual(300);
        let throughout = true;
        for (let ts = b; ts < b + 300 && throughout; ts += LIVE) throughout = reporting(unit, ts);
        if (throughout) {
          expect(seconds, at).toBe(300);
          full++;
        }
      }
    }
    return full;
  }

  beforeAll(async () => {
    const { db, telemetry } = h().ctx;
    const org = await h().org();
    await buildFleet(db, { count: 30, seed: 13, owners: { retailers: [org], networks: new Map(), installers: [] }, historyDays: 1, now: seam });
    const rows = await db.selectFrom('nodes').select(['id', 'commissioned_at', 'sim_json']).orderBy('id').execute();
    nodes = rows.map(({ sim_json, ...r }) => ({ ...r, params: JSON.parse(sim_json) as SimParams }));
    await telemetry.ensurePartitions(from - 86400, nowS() + 86400);
    const sim = await simulator();
    await sim.run(from, seam, 300);
  });

  afterEach(() => armCrashPoint(undefined));

  it('counts no reading twice when a report dies between its readings and the fleet position', async () => {
    const sim = await simulator();
    for (let t = seam + 300; t < seam + 600; t += LIVE) await sim.tick(t);
    // The second report from here stops where a kill would stop it; the fleet then restarts from what was committed.
    armCrashPoint('telemetry-write:2', () => {
      throw new Error('killed');
    });
    await expect(
      (async () => {
        for (let t = seam + 600; t < seam + 900; t += LIVE) await sim.tick(t);
      })(),
    ).rejects.toThrow('killed');
    armCrashPoint(undefined);
    const restarted = await simulator();
    for (let t = seam + 660; t < seam + 1200; t += LIVE) await restarted.tick(t);
    expect(await expectEverySecondOnce(from, seam + 900)).toBeGreaterThan(nodes.length * 20);
  });

  it('leaves no hole when the server is down from just before a 5-minute bucket to well into it', async () => {
    const sim = await simulator();
    // Live until 90 s before a bucket, then nothing until 120 s into it.
    const bucket = seam + 1800;
    for (let t = seam + 1200; t <= bucket - 120; t += LIVE) await sim.tick(t);
    for (let t = bucket + 120; t < bucket + 600; t += LIVE) await sim.tick(t);
    expect(await expectEverySecondOnce(seam + 1200, bucket + 300)).toBeGreaterThan(nodes.length * 2);
  });

  it('catches up every second of a downtime of more than a day, then reports live again', async () => {
    const sim = await simulator();
    const back = seam + 32 * HOUR + 170;
    await sim.tick(back);
    const resumed = back - (back % 300);
    for (let t = back + LIVE; t < resumed + 600; t += LIVE) await sim.tick(t);
    expect(await expectEverySecondOnce(seam + 2400, resumed + 300)).toBeGreaterThan(nodes.length * 300);
  });
});
